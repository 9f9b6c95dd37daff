import SwitchyardIO

/// Paces publishing from the journal to `drainRate` actions a second: a token bucket holding
/// at most a tenth of a second of actions, so a backlog after an outage drains at the rate
/// and never in one burst — a state machine fed the time, without I/O.
struct DrainPacer: Sendable {
    /// Actions a second; `nil` for no limit.
    let rate: Int?
    /// The most actions allowed at once after a pause: a tenth of a second's worth, at least one.
    let burst: Int
    private var tokens: Double
    private var updated: Duration

    /// A full bucket at `now`.
    init(rate: Int?, now: Duration) {
        self.rate = rate
        burst = rate.map { max(1, $0 / 10) } ?? Int.max
        tokens = Double(burst)
        updated = now
    }

    /// How many actions may be published at `now`.
    mutating func allowance(now: Duration) -> Int {
        guard let rate else { return Int.max }
        if now > updated {
            tokens = min(Double(burst), tokens + (now - updated).secondsValue * Double(rate))
            updated = now
        }
        return Int(tokens.rounded(.down))
    }

    /// `count` actions were published.
    mutating func spend(_ count: Int) {
        guard rate != nil else { return }
        tokens -= Double(count)
    }

    /// How long from the last ``allowance(now:)`` until one more action may be published;
    /// zero when one may be now.
    var delay: Duration {
        guard let rate, tokens < 1 else { return .zero }
        return .nanoseconds(Int64(((1 - tokens) / Double(rate) * 1e9).rounded(.up)))
    }
}
