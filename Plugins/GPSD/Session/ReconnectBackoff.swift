import SwitchyardIO

/// Exponential reconnect delays: `initial`, then doubling up to `maximum` (the shared
/// ``ExponentialBackoff``; `delay(beforeAttempt:)` is zero for attempts below 1).
typealias ReconnectBackoff = ExponentialBackoff
