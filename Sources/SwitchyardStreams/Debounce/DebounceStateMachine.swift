/// The pure state of `debounce`: the latest element and when it falls due.
///
/// Each element replaces the pending one and pushes the deadline to `interval` after its
/// arrival; the timer emits the pending element once time reaches the deadline. A timer that
/// wakes early (the deadline moved while it slept) emits nothing and sleeps again.
@usableFromInline struct DebounceStateMachine<Element: Sendable, Instant: InstantProtocol>: Sendable {
    @usableFromInline let interval: Instant.Duration
    @usableFromInline var pending: Element?
    /// When the pending element falls due; `nil` when nothing is pending.
    @usableFromInline var deadline: Instant?

    @inlinable init(interval: Instant.Duration) {
        self.interval = interval
    }

    @inlinable mutating func received(_ element: Element, at now: Instant) {
        pending = element
        deadline = now.advanced(by: interval)
    }

    /// The pending element if it is due at `now`, which is then no longer pending.
    @inlinable mutating func deadlineReached(at now: Instant) -> Element? {
        guard let deadline, now >= deadline else { return nil }
        return takePending()
    }

    /// The pending element to deliver before finishing: nothing is lost on finish.
    @inlinable mutating func upstreamFinished() -> Element? {
        takePending()
    }

    /// Drops the pending element: a failure ends the sequence at once.
    @inlinable mutating func upstreamFailed() -> Element? {
        _ = takePending()
        return nil
    }

    @inlinable mutating func takePending() -> Element? {
        deadline = nil
        defer { pending = nil }
        return pending
    }
}

extension DebounceStateMachine: HoldingMachine {
    @inlinable static var readingWaitsForRoom: Bool { false }

    /// Takes `element` as the pending one; an arrival never emits.
    @inlinable mutating func received(_ element: Element, at now: Instant, emit: (Element) -> Void) {
        received(element, at: now)
    }

    @inlinable mutating func deadlineReached(at now: Instant, emit: (Element) -> Void) {
        if let element = deadlineReached(at: now) { emit(element) }
    }
}
