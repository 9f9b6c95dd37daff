import Foundation
import Testing

@testable import NetworkFetchPlugin

/// The pure retry decision: what is retried, after how long, and when to give up.
struct RetryPolicyTests {
    private let policy = RetryPolicy(attempts: 4, baseDelay: .seconds(1), maxDelay: .seconds(5))
    private let now = Date(timeIntervalSince1970: 1_700_000_000)

    /// Network errors, timeouts, 5xx and 429 are retried; other statuses are not.
    @Test(arguments: [
        (RetryPolicy.Problem.network, true),
        (.timeout, true),
        (.status(500, retryAfter: nil), true),
        (.status(503, retryAfter: nil), true),
        (.status(599, retryAfter: nil), true),
        (.status(429, retryAfter: nil), true),
        (.status(400, retryAfter: nil), false),
        (.status(401, retryAfter: nil), false),
        (.status(404, retryAfter: "5"), false),
        (.status(408, retryAfter: nil), false),
        (.status(302, retryAfter: nil), false),
    ])
    func retriesOnlyTransientProblems(problem: RetryPolicy.Problem, retried: Bool) {
        let decision = policy.decision(after: problem, attempt: 1, now: now, jitter: 0)
        #expect((decision != .giveUp) == retried)
    }

    /// The backoff doubles per attempt up to `maxDelay`, and jitter spreads it over its upper
    /// half.
    @Test(arguments: [
        (1, 0.0, Duration.milliseconds(500)),
        (1, 1.0, .seconds(1)),
        (2, 0.0, .seconds(1)),
        (2, 0.5, .milliseconds(1500)),
        (3, 1.0, .seconds(4)),
        (3, 0.0, .seconds(2)),
    ])
    func backsOffExponentiallyWithJitter(attempt: Int, jitter: Double, delay: Duration) {
        #expect(policy.decision(after: .network, attempt: attempt, now: now, jitter: jitter) == .retry(after: delay))
    }

    /// The backoff never exceeds `maxDelay`, however many attempts are allowed.
    @Test func backoffIsCapped() {
        let generous = RetryPolicy(attempts: 100, baseDelay: .seconds(1), maxDelay: .seconds(5))
        #expect(generous.decision(after: .timeout, attempt: 60, now: now, jitter: 1) == .retry(after: .seconds(5)))
        #expect(generous.decision(after: .timeout, attempt: 99, now: now, jitter: 0.999) <= .retry(after: .seconds(5)))
    }

    /// Jitter outside `0..<1` is clamped rather than trusted.
    @Test func jitterIsClamped() {
        #expect(policy.decision(after: .network, attempt: 1, now: now, jitter: -3) == .retry(after: .milliseconds(500)))
        #expect(policy.decision(after: .network, attempt: 1, now: now, jitter: 7) == .retry(after: .seconds(1)))
    }

    /// No retry once the attempts are used up, and none at all with `attempts: 1`.
    @Test func givesUpAfterTheLastAttempt() {
        #expect(policy.decision(after: .network, attempt: 4, now: now, jitter: 0) == .giveUp)
        #expect(policy.decision(after: .network, attempt: 3, now: now, jitter: 0) != .giveUp)
        let once = RetryPolicy(attempts: 1)
        #expect(once.decision(after: .status(503, retryAfter: nil), attempt: 1, now: now, jitter: 0) == .giveUp)
    }

    /// `Retry-After` replaces the backoff, capped at `maxDelay`, in seconds or as a date.
    @Test(arguments: [
        ("2", Duration.seconds(2)),
        ("0", .zero),
        ("3600", .seconds(5)),
        ("99999999999999999999999", .seconds(5)),
        ("Tue, 14 Nov 2023 22:13:23 GMT", .seconds(3)),
        ("Tue, 14 Nov 2023 22:00:00 GMT", .zero),
        ("soon", .milliseconds(500)),
    ])
    func honoursRetryAfter(header: String, delay: Duration) {
        #expect(policy.decision(after: .status(429, retryAfter: header), attempt: 1, now: now, jitter: 0) == .retry(after: delay))
        #expect(policy.decision(after: .status(503, retryAfter: header), attempt: 1, now: now, jitter: 0) == .retry(after: delay))
    }
}

extension RetryPolicy.Decision: Comparable {
    public static func < (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case (.retry(let left), .retry(let right)): return left < right
        case (.retry, .giveUp): return true
        default: return false
        }
    }
}

/// Reading `Retry-After` header values.
struct RetryAfterTests {
    private let now = Date(timeIntervalSince1970: 1_700_000_000)

    /// Delay-seconds and IMF-fixdate values give the wait; anything else gives `nil`.
    @Test(arguments: [
        ("120", Duration?.some(.seconds(120))),
        (" 7 ", .seconds(7)),
        ("Tue, 14 Nov 2023 22:14:20 GMT", .seconds(60)),
        ("Sun, 06 Nov 1994 08:49:37 GMT", .zero),
        ("-5", nil),
        ("1.5", nil),
        ("", nil),
        ("Tuesday, 14-Nov-23 22:14:20 GMT", nil),
        ("Tue, 14 Nov 2023 22:14:20 UTC", nil),
        ("Tue, 14 Foo 2023 22:14:20 GMT", nil),
        ("Tue, 14 Nov 2023 25:14:20 GMT", nil),
    ])
    func parses(header: String, delay: Duration?) {
        #expect(RetryAfter.delay(header, now: now) == delay)
    }
}
