/// The one copy of the delays between retries (reconnects, restarts, requests): `initial`
/// before the first retry, doubling with each further one, capped at `maximum`.
///
/// Callers that spread retries out add jitter with ``delay(beforeAttempt:jitter:random:)``,
/// so that many clients that failed together do not retry in step.
package struct ExponentialBackoff: Sendable, Hashable {
    /// The delay before the first retry.
    package var initial: Duration
    /// The longest delay; an `initial` above it is cut to it.
    package var maximum: Duration

    /// A backoff from `initial` up to `maximum`.
    package init(initial: Duration, maximum: Duration) {
        self.initial = initial
        self.maximum = maximum
    }

    /// The delay before retry number `attempt` (1 for the first): `initial × 2^(attempt − 1)`,
    /// capped at `maximum`; zero for attempts below 1.
    package func delay(beforeAttempt attempt: Int) -> Duration {
        guard attempt >= 1 else { return .zero }
        var delay = initial
        for _ in 1..<attempt {
            if delay >= maximum { break }
            delay *= 2
        }
        return min(delay, maximum)
    }

    /// ``delay(beforeAttempt:)`` with a random share taken off: with `jitter` 0.5 the delay
    /// lies between half and all of its exponential value, by `random` in 0..<1 (clamped; 0
    /// keeps the whole delay).
    package func delay(beforeAttempt attempt: Int, jitter: Double, random: Double) -> Duration {
        delay(beforeAttempt: attempt) * (1 - jitter * min(max(random, 0), 1))
    }
}
