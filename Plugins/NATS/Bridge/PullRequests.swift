import SwitchyardBus
import SwitchyardIO

/// The bridge's pull requests to its JetStream consumer — a state machine without I/O.
///
/// One request for up to ``batch`` messages is outstanding at a time. It ends when that
/// many messages arrived, when the server reports it done (408 expired, 404 no messages,
/// 409 for reasons such as too many waiting requests) or, should the server's answer be
/// lost, a second after it was due to expire. Only then is the next one made, so the
/// messages in the bridge's hands never exceed a batch or two.
struct PullRequests: Sendable {
    /// The most messages asked for at once.
    let batch: Int
    /// How long the server holds a request open when no message arrives.
    let expires: Duration

    private struct Outstanding: Sendable {
        var token: String
        var remaining: Int
        var deadline: Duration
    }

    private var outstanding: Outstanding?
    private var issued: UInt64 = 0

    /// The grace after a request's expiry before the bridge stops waiting for its end.
    static let grace: Duration = .seconds(1)

    /// Creates the machine with nothing outstanding.
    init(batch: Int, expires: Duration) {
        self.batch = max(batch, 1)
        self.expires = expires
    }

    /// Whether a request is outstanding.
    var isOutstanding: Bool { outstanding != nil }

    /// A new request (its reply token and JSON body) when none is outstanding; `nil` otherwise.
    mutating func next(now: Duration) -> (token: String, body: [UInt8])? {
        if let current = outstanding, now < current.deadline { return nil }
        issued += 1
        let token = "f\(issued)"
        outstanding = Outstanding(token: token, remaining: batch, deadline: now + expires + Self.grace)
        var body: [UInt8] = []
        JSON.object(["batch": .integer(Int64(batch)), "expires": .integer(expires.nanosecondsValue)]).serialize(into: &body)
        return (token, body)
    }

    /// A message arrived for the consumer.
    mutating func delivered() {
        guard var current = outstanding else { return }
        current.remaining -= 1
        outstanding = current.remaining > 0 ? current : nil
    }

    /// The server ended the request `token` (a 404, 408 or 409 status).
    mutating func ended(token: String) {
        if outstanding?.token == token { outstanding = nil }
    }

    /// The connection is gone, and its requests with it.
    mutating func reset() {
        outstanding = nil
    }
}
