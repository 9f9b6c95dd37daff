/// Exponential reconnect delays: `initial`, then doubling up to `maximum`.
struct ReconnectBackoff: Sendable, Hashable {
    /// The delay before the first retry.
    var initial: Duration
    /// The longest delay.
    var maximum: Duration

    /// The delay before retry number `attempt` (1 for the first): `initial × 2^(attempt − 1)`,
    /// capped at `maximum`; zero for attempts below 1.
    func delay(beforeAttempt attempt: Int) -> Duration {
        guard attempt >= 1 else { return .zero }
        var delay = initial
        for _ in 1..<attempt {
            if delay >= maximum { break }
            delay *= 2
        }
        return min(delay, maximum)
    }
}
