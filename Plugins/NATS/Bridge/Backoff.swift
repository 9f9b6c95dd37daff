import SwitchyardIO

/// The delays between reconnect attempts: exponential, capped, with jitter so that a fleet
/// of buses that lost the same server does not come back in lockstep.
struct Backoff: Sendable, Hashable {
    /// The delay before the first retry. Default: 0.25 seconds.
    var initial: Duration = .milliseconds(250)
    /// The longest delay. Default: 10 seconds.
    var maximum: Duration = .seconds(10)
    /// The share of each delay that is random: with 0.5, a delay is between half and all of
    /// its exponential value. Default: 0.5.
    var jitter = 0.5

    /// The delay before retry number `attempt` (1 for the first; below 1 counts as 1), given
    /// `random` in 0..<1.
    func delay(attempt: Int, random: Double) -> Duration {
        ExponentialBackoff(initial: initial, maximum: maximum)
            .delay(beforeAttempt: max(attempt, 1), jitter: jitter, random: random)
    }
}
