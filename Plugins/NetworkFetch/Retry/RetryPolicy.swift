import SwitchyardIO
import FoundationEssentials

/// When to try a request again, and after how long: a pure decision from what went wrong,
/// how many attempts were made, the time and a random number.
///
/// Network errors, timeouts, 5xx and 429 are retried; other statuses are final. The delay
/// after attempt *n* is exponential with "equal jitter": half of `min(maxDelay, baseDelay · 2ⁿ⁻¹)`
/// plus a random share of the other half, so clients that failed together do not retry in
/// step. A `Retry-After` header on a retried status replaces the backoff (capped at `maxDelay`).
struct RetryPolicy: Sendable, Hashable {
    /// Attempts in total, the first included; 1 disables retries. Default: 3.
    var attempts: Int
    /// The backoff before the first retry, before jitter. Default: 0.5 s.
    var baseDelay: Duration
    /// The longest wait between attempts, also for `Retry-After`. Default: 30 s.
    var maxDelay: Duration

    /// Creates a policy; defaults as documented on each property.
    init(attempts: Int = 3, baseDelay: Duration = .milliseconds(500), maxDelay: Duration = .seconds(30)) {
        self.attempts = attempts
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
    }

    /// What went wrong in an attempt, as far as retrying is concerned.
    enum Problem: Sendable, Hashable {
        case network
        case timeout
        /// A complete response with a status that is not 2xx, and its `Retry-After` header.
        case status(Int, retryAfter: String?)
    }

    enum Decision: Sendable, Hashable {
        case retry(after: Duration)
        case giveUp
    }

    /// Whether a response with `status` may succeed when sent again: 5xx and 429.
    static func isRetryable(status: Int) -> Bool {
        status == 429 || (500...599).contains(status)
    }

    /// The decision after attempt number `attempt` (1 for the first) failed with `problem`.
    ///
    /// - Parameters:
    ///   - now: the wall-clock time, for a `Retry-After` given as an HTTP date.
    ///   - jitter: a random number in `0..<1`; values outside are clamped.
    func decision(after problem: Problem, attempt: Int, now: Date, jitter: Double) -> Decision {
        guard attempt < attempts else { return .giveUp }
        switch problem {
        case .network, .timeout:
            return .retry(after: backoff(afterAttempt: attempt, jitter: jitter))
        case .status(let status, let retryAfter):
            guard Self.isRetryable(status: status) else { return .giveUp }
            if let retryAfter, let requested = RetryAfter.delay(retryAfter, now: now) {
                return .retry(after: min(requested, maxDelay))
            }
            return .retry(after: backoff(afterAttempt: attempt, jitter: jitter))
        }
    }

    private func backoff(afterAttempt attempt: Int, jitter: Double) -> Duration {
        let exponential = ExponentialBackoff(initial: baseDelay, maximum: maxDelay)
            .delay(beforeAttempt: max(attempt, 1)).secondsValue
        let share = min(max(jitter, 0), 1)
        return .seconds(exponential / 2 + exponential / 2 * share)
    }
}
