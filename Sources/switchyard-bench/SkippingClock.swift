import Synchronization

/// A clock whose sleeps return at once, moving its time to the deadline, so the `timer` case
/// measures the operator's own work per tick rather than the kernel's timers.
struct SkippingClock: Clock {
    /// A time on this clock: how far it moved from its start.
    struct Instant: InstantProtocol {
        var offset: Duration

        /// The offset in whole nanoseconds.
        var nanoseconds: Int {
            Int(offset.components.seconds) &* 1_000_000_000 &+ Int(offset.components.attoseconds / 1_000_000_000)
        }

        func advanced(by duration: Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        func duration(to other: Instant) -> Duration {
            other.offset - offset
        }

        static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }
    }

    /// The time in nanoseconds; only the consumer of one case moves it.
    private final class Time: Sendable {
        let nanoseconds = Atomic<Int>(0)
    }

    private let time = Time()

    var now: Instant {
        Instant(offset: .nanoseconds(time.nanoseconds.load(ordering: .relaxed)))
    }

    var minimumResolution: Duration {
        .nanoseconds(1)
    }

    /// Returns at once, the clock's time moved to `deadline` if it was earlier.
    /// - Throws: `CancellationError` when the task is cancelled.
    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try Task.checkCancellation()
        time.nanoseconds.store(max(time.nanoseconds.load(ordering: .relaxed), deadline.nanoseconds), ordering: .relaxed)
    }
}
