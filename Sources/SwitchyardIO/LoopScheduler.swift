/// What a protocol adapter needs of its loop besides its channel: the time and timers.
///
/// ``LoopThread`` (the real loop) and ``EmbeddedLoop`` (tests, with a manual clock) conform,
/// so an adapter written against this runs unchanged on both. Every method is called on the
/// loop's own thread, and every timer body runs there.
package protocol LoopScheduler: AnyObject {
    /// The loop's current time.
    var now: ContinuousClock.Instant { get }

    /// Runs `body` on the loop once `now` reaches `deadline` (at once, on the next turn, for a
    /// past deadline).
    @discardableResult
    func schedule(at deadline: ContinuousClock.Instant, _ body: @escaping () -> Void) -> TimerID

    /// Cancels a timer; nothing happens if it already ran or was cancelled.
    func cancel(_ timer: TimerID)
}

extension LoopScheduler {
    /// Runs `body` on the loop after `delay`.
    @discardableResult
    package func schedule(after delay: Duration, _ body: @escaping () -> Void) -> TimerID {
        schedule(at: now.advanced(by: delay), body)
    }
}
