/// A loop for tests that makes no system call: a manual clock, timers run by
/// ``advance(by:)``, and ``EmbeddedChannel``s whose bytes the test feeds and collects.
///
/// A protocol adapter written against ``LoopScheduler`` and ``StreamChannel`` runs on it
/// unchanged, deterministically and in-process, as swift-nio's `EmbeddedChannel` lets a
/// handler be tested. Not thread-safe: use it from one task.
package final class EmbeddedLoop: LoopScheduler {
    package private(set) var now: ContinuousClock.Instant
    private var timers = TimerQueue<() -> Void>()

    /// Creates a loop whose clock starts at `start`.
    package init(start: ContinuousClock.Instant = .now) {
        now = start
    }

    @discardableResult
    package func schedule(at deadline: ContinuousClock.Instant, _ body: @escaping () -> Void) -> TimerID {
        timers.schedule(at: deadline, body)
    }

    package func cancel(_ timer: TimerID) {
        timers.cancel(timer)
    }

    /// How many timers are scheduled.
    package var scheduledCount: Int { timers.count }

    /// Moves the clock forward by `duration`, running each timer due on the way at its own
    /// deadline, in deadline order (timers they schedule within the span run too).
    package func advance(by duration: Duration) {
        let target = now.advanced(by: duration)
        while let deadline = timers.nextDeadline(), deadline <= target {
            now = max(now, deadline)
            while let (_, body) = timers.popDue(at: now) { body() }
        }
        now = target
    }
}
