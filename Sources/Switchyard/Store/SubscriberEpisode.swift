/// One `actions` subscriber's episodes of falling behind, with hysteresis so the log gets two
/// lines per episode, not one per stall: a line when the store first waits for it (or it first
/// drops), and one when it has recovered, with the episode's counts.
///
/// Recovering takes two steps: the subscriber reads everything it buffered, and then the store
/// delivers a whole buffer's worth of actions (`capacity`) without the subscriber holding it up
/// or dropping again. A subscriber that keeps catching up and falling behind again stays in one
/// episode. Pure and counted in delivered actions, so it is tested without a clock.
@usableFromInline
struct SubscriberEpisode: Sendable {
    @usableFromInline
    enum Phase: Sendable, Hashable {
        case calm
        case behind
        /// Read everything; `delivered` actions arrived since without falling behind again.
        case recovering(delivered: Int)
    }

    /// What to log.
    @usableFromInline
    enum Event: Sendable, Hashable {
        case startedHolding(buffered: Int)
        case startedDropping
        case recovered(waits: Int, dropped: Int)
        /// The subscription ended while behind or recovering.
        case ended(waits: Int, dropped: Int)
    }

    @usableFromInline private(set) var phase = Phase.calm
    /// Times the store waited for the subscriber in this episode.
    @usableFromInline private(set) var waits = 0
    /// Actions the subscriber lost in this episode.
    @usableFromInline private(set) var dropped = 0
    @usableFromInline let capacity: Int

    @usableFromInline
    init(capacity: Int) {
        self.capacity = capacity
    }

    @inlinable
    var isCalm: Bool { phase == .calm }

    /// The store is about to wait for the subscriber.
    @inlinable
    mutating func held(buffered: Int) -> Event? {
        waits += 1
        defer { phase = .behind }
        return phase == .calm ? .startedHolding(buffered: buffered) : nil
    }

    /// The subscriber lost `count` actions to its dropping overflow policy.
    @inlinable
    mutating func dropped(_ count: Int) -> Event? {
        dropped += count
        defer { phase = .behind }
        return phase == .calm ? .startedDropping : nil
    }

    /// The subscriber read everything it had buffered.
    @inlinable
    mutating func caughtUp() {
        if phase == .behind { phase = .recovering(delivered: 0) }
    }

    /// The store delivered `count` actions to the subscriber; ends a recovering episode after a
    /// whole buffer's worth.
    @inlinable
    mutating func delivered(_ count: Int) -> Event? {
        guard case .recovering(let delivered) = phase else { return nil }
        guard delivered + count >= capacity else {
            phase = .recovering(delivered: delivered + count)
            return nil
        }
        defer { self = SubscriberEpisode(capacity: capacity) }
        return .recovered(waits: waits, dropped: dropped)
    }

    /// Ends the episode (the subscription ended); nil when there was none.
    @inlinable
    mutating func end() -> Event? {
        guard phase != .calm else { return nil }
        defer { self = SubscriberEpisode(capacity: capacity) }
        return .ended(waits: waits, dropped: dropped)
    }
}
