@testable import GPSDPlugin
import Testing

/// Reconnect backoff and the receive-time rate limiter.
struct TimingPolicyTests {
    /// Delays double from the initial one and stop at the cap.
    @Test(arguments: [
        (0, Duration.zero), (1, .milliseconds(500)), (2, .seconds(1)), (3, .seconds(2)), (4, .seconds(4)),
        (6, .seconds(16)), (7, .seconds(30)), (50, .seconds(30)), (Int.max, .seconds(30)),
    ] as [(Int, Duration)])
    func backoffDoublesUpToTheCap(attempt: Int, delay: Duration) {
        let backoff = ReconnectBackoff(initial: .milliseconds(500), maximum: .seconds(30))
        #expect(backoff.delay(beforeAttempt: attempt) == delay)
    }

    /// An initial delay above the cap is capped.
    @Test func initialAboveTheCap() {
        #expect(ReconnectBackoff(initial: .seconds(60), maximum: .seconds(5)).delay(beforeAttempt: 1) == .seconds(5))
    }

    /// One event per interval passes, measured from the last that passed.
    @Test func rateLimiterLetsOnePerInterval() {
        var limiter = RateLimiter(interval: .seconds(5))
        let arrivals: [Duration] = [.zero, .seconds(1), .seconds(4.9), .seconds(5), .seconds(9), .seconds(10)]
        #expect(arrivals.map { limiter.admit(at: $0) } == [true, false, false, true, false, true])
    }

    /// A zero interval lets everything through, even simultaneous events.
    @Test func zeroIntervalAdmitsAll() {
        var limiter = RateLimiter(interval: .zero)
        #expect([Duration.zero, .zero, .seconds(1)].map { limiter.admit(at: $0) } == [true, true, true])
    }
}
