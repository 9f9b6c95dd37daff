/// The pure state of `collect(every:)` and `collect(count:orEvery:)`: the elements gathered
/// since the last array, and the next tick of the repeating window.
///
/// Ticks fall every `interval` from the start; a tick emits what was gathered (nothing when
/// nothing was), and reaching `count` emits at once without moving the ticks. A tick the timer
/// wakes for late is taken as the latest one due, so late wake-ups never emit several arrays.
@usableFromInline struct CollectStateMachine<Element: Sendable, Instant: InstantProtocol>: DeadlineMachine {
    @usableFromInline let interval: Instant.Duration
    @usableFromInline let count: Int
    @usableFromInline var gathered: [Element] = []
    /// The next tick; `nil` before the start and after the end.
    @usableFromInline var deadline: Instant?

    @inlinable init(interval: Instant.Duration, count: Int) {
        self.interval = interval
        self.count = count
    }

    /// The window starts: the first tick is one interval after `now`.
    @inlinable mutating func started(at now: Instant) {
        deadline = now.advanced(by: interval)
    }

    /// Gathers `element`; the array to emit when that makes `count`.
    @inlinable mutating func received(_ element: Element) -> [Element]? {
        gathered.append(element)
        return gathered.count >= count ? takeGathered() : nil
    }

    /// The timer woke at `now`: the array to emit when a tick is due and something was
    /// gathered. The next tick is the first one after `now`.
    @inlinable mutating func deadlineReached(at now: Instant) -> [Element]? {
        guard let due = deadline, now >= due else { return nil }
        var next = due.advanced(by: interval)
        while next <= now { next = next.advanced(by: interval) }
        deadline = next
        return takeGathered()
    }

    /// The base ended: the array of what is left, to emit before the end (nothing is lost).
    @inlinable mutating func upstreamEnded() -> [Element]? {
        deadline = nil
        return takeGathered()
    }

    @inlinable mutating func takeGathered() -> [Element]? {
        guard !gathered.isEmpty else { return nil }
        defer { gathered = [] }
        return gathered
    }
}
