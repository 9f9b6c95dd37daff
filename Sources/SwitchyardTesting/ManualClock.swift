#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif
import Synchronization

/// A clock whose time moves only when a test advances it, so time-based operators are tested
/// deterministically and without sleeping.
///
/// Copies share one timeline. A sleeper registers with ``sleep(until:tolerance:)`` and wakes when
/// ``advance(by:)`` or ``advance(to:)`` reaches its deadline; sleepers that fall due together
/// are resumed in deadline order (ties in the order they began sleeping). A deadline that has
/// already passed returns at once without registering. A cancelled sleeper is removed and
/// throws `CancellationError`.
///
/// Resumed tasks then run concurrently. When one timer's effects must be observed before the
/// next one fires, advance one deadline at a time (`clock.advance(to: clock.nextDeadline!)`), and
/// use ``waitForSleepers(count:)`` to know that the code under test has gone back to sleep:
///
/// ```swift
/// let clock = ManualClock()
/// let ticks = source.debounce(for: .milliseconds(250), clock: clock)
/// source.send(1)
/// await clock.waitForSleepers(count: 1)
/// clock.advance(by: .milliseconds(250))
/// ```
public struct ManualClock: Clock {
    /// A point on a manual clock's timeline: the time advanced since the clock was created.
    public struct Instant: InstantProtocol, CustomStringConvertible {
        /// The time between the clock's creation and this instant.
        public var offset: Duration

        /// Creates the instant `offset` after the clock's creation (`.zero` is the start).
        public init(offset: Duration) {
            self.offset = offset
        }

        /// The instant `duration` later (earlier for a negative duration).
        public func advanced(by duration: Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        /// The duration from this instant to `other`.
        public func duration(to other: Instant) -> Duration {
            other.offset - offset
        }

        /// Whether `lhs` comes before `rhs`.
        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }

        /// The offset from the clock's start, such as `+0.25 seconds`.
        public var description: String { "+\(offset)" }
    }

    private let timeline: ManualTimeline

    /// Creates a clock whose time starts at `Instant(offset: .zero)` and stays there until advanced.
    public init() {
        timeline = ManualTimeline()
    }

    /// The current instant; it changes only through ``advance(by:)`` and ``advance(to:)``.
    public var now: Instant { timeline.now }

    /// Always `.zero`: a manual clock can be advanced by any amount.
    public var minimumResolution: Duration { .zero }

    /// The number of tasks currently sleeping on this clock.
    public var sleeperCount: Int { timeline.sleeperCount }

    /// The earliest deadline of a current sleeper, or `nil` when nobody sleeps.
    public var nextDeadline: Instant? { timeline.nextDeadline }

    /// The time from now until each current sleeper's deadline, shortest first (empty when
    /// nobody sleeps).
    public var pendingDelays: [Duration] { timeline.pendingDelays }

    /// Suspends until a task sleeps on this clock for a delay from now that satisfies
    /// `predicate` (a sleeper already there counts), and returns that delay, so a test can
    /// advance by exactly a backoff or a timeout it does not know in advance:
    /// `clock.advance(by: await clock.waitForSleeper { $0 < .seconds(30) }!)`.
    ///
    /// Returns `nil` when the waiting task is cancelled first.
    @discardableResult
    public func waitForSleeper(where predicate: @escaping @Sendable (Duration) -> Bool) async -> Duration? {
        await timeline.waitForSleeper(where: predicate)
    }

    /// Suspends until the clock is advanced to `deadline`; returns at once when it has passed.
    ///
    /// `tolerance` is ignored: a manual clock wakes sleepers exactly at their deadline.
    /// - Throws: `CancellationError` when the sleeping task is cancelled (the sleeper is removed).
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try await timeline.sleep(until: deadline)
    }

    /// Moves time forward by `duration` and wakes every sleeper that falls due, in deadline order.
    ///
    /// - Precondition: `duration` is not negative; a manual clock never moves backwards.
    public func advance(by duration: Duration) {
        precondition(duration >= .zero, "ManualClock.advance(by:) needs a duration >= 0, got \(duration)")
        timeline.advance { $0.advanced(by: duration) }
    }

    /// Moves time forward to `instant` and wakes every sleeper that falls due, in deadline order.
    ///
    /// - Precondition: `instant` is not before ``now``; a manual clock never moves backwards.
    public func advance(to instant: Instant) {
        timeline.advance { now in
            precondition(instant >= now, "ManualClock.advance(to: \(instant)) is before now (\(now))")
            return instant
        }
    }

    /// Suspends until exactly `count` tasks sleep on this clock, so a test advances time only
    /// after the code under test has registered its timers.
    ///
    /// Returns early, with any count, when the waiting task is cancelled.
    public func waitForSleepers(count: Int) async {
        await timeline.waitForSleepers(count: count)
    }

    /// Waits, yielding and never sleeping, until at least `count` tasks sleep on this clock.
    /// Returns `false` when that does not happen within `limit` of real time (default 30 s,
    /// multiplied by the environment variable `SWITCHYARD_TEST_TIMEOUT_SCALE` when it holds a
    /// positive number), so a test that registers fewer timers than it expects fails instead of
    /// hanging, and a busy machine is not mistaken for such a test.
    public func waitForSleepers(atLeast count: Int, limit: Duration = .seconds(30)) async -> Bool {
        let deadline = ContinuousClock.now.advanced(by: limit * RealTimeScale.factor)
        while sleeperCount < count {
            if ContinuousClock.now > deadline || Task.isCancelled { return false }
            await Task.yield()
        }
        return true
    }
}

/// The factor a test's real-time safety bounds are multiplied by: `SWITCHYARD_TEST_TIMEOUT_SCALE`
/// when it is a positive number, else 1.
package enum RealTimeScale {
    package static let factor: Double = {
        guard let text = getenv("SWITCHYARD_TEST_TIMEOUT_SCALE").map({ String(cString: $0) }),
              let value = Double(text), value.isFinite, value > 0 else { return 1 }
        return value
    }()
}
