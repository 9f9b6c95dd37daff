/// Sends one HTTP request: the seam between the fetch logic and the network, so retries,
/// timeouts and policies are tested with a scripted transport and the real one is tested
/// against a real server.
protocol HTTPTransport: Sendable {
    /// Sends `request` and collects the response.
    ///
    /// Follows redirects (see the implementation for limits), cuts the transfer off as soon as
    /// the body would exceed `maxResponseBytes`, and returns ``TransportResult/cancelled``
    /// promptly when the calling task is cancelled. `timeout` is a backstop only: callers
    /// enforce the timeout on their own clock.
    func send(_ request: PreparedRequest, maxResponseBytes: Int, timeout: Duration) async -> TransportResult
}

/// A complete HTTP response.
struct HTTPResponse: Sendable, Hashable {
    var status: Int
    /// Header values by lower-cased name.
    var headers: [String: String]
    var body: [UInt8]

    init(status: Int, headers: [String: String] = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.body = body
    }
}

/// How sending one request ended.
enum TransportResult: Sendable, Hashable {
    /// A response arrived in full, whatever its status.
    case response(HTTPResponse)
    /// The connection failed; the message names the cause and the host, never the full URL.
    case network(String)
    /// The transport's own backstop timeout fired.
    case timedOut
    /// The body exceeded the limit; the transfer was stopped. `status` is the response's.
    case tooLarge(status: Int?)
    /// A redirect was not followed (too many, or to a scheme other than http/https).
    case redirectRefused(status: Int?, reason: String)
    /// The calling task was cancelled.
    case cancelled
}
