/// Why a connection to a NATS server failed or ended.
///
/// ``kind`` is the word a `NAME/failed` action carries; ``description`` is the sentence for
/// people, and never contains a credential.
struct NATSConnectionError: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Code: Sendable, Hashable {
        case unreachable(String)
        case timeout(String)
        case authorization(String)
        case tlsRequired
        case headersUnsupported
        case serverError(String)
        case protocolError(NATSProtocolError)
        case stale(Int)
        case closedByServer
        case io(String)
        case closedByClient
    }

    private let code: Code

    private init(_ code: Code) {
        self.code = code
    }

    /// The server could not be reached: name resolution or the TCP connect failed.
    static func unreachable(_ reason: String) -> NATSConnectionError { NATSConnectionError(.unreachable(reason)) }
    /// The connect or the handshake did not finish in time.
    static func timeout(_ phase: String) -> NATSConnectionError { NATSConnectionError(.timeout(phase)) }
    /// The server refused the credentials (or their absence).
    static func authorization(_ message: String) -> NATSConnectionError { NATSConnectionError(.authorization(message)) }
    /// The server requires TLS.
    static let tlsRequired = NATSConnectionError(.tlsRequired)
    /// The server does not support message headers.
    static let headersUnsupported = NATSConnectionError(.headersUnsupported)
    /// The server sent an `-ERR` that ends the connection.
    static func serverError(_ message: String) -> NATSConnectionError { NATSConnectionError(.serverError(message)) }
    /// The server sent something the client protocol does not allow.
    static func protocolError(_ error: NATSProtocolError) -> NATSConnectionError { NATSConnectionError(.protocolError(error)) }
    /// The server did not answer `count` pings in a row.
    static func stale(pings count: Int) -> NATSConnectionError { NATSConnectionError(.stale(count)) }
    /// The server closed the connection.
    static let closedByServer = NATSConnectionError(.closedByServer)
    /// Reading or writing the socket failed.
    static func io(_ reason: String) -> NATSConnectionError { NATSConnectionError(.io(reason)) }
    /// The client closed the connection (the plugin stopped or gave up on it).
    static let closedByClient = NATSConnectionError(.closedByClient)

    /// One word for the `kind` of a `NAME/failed` action: `unreachable`, `timeout`,
    /// `authorization`, `unsupported`, `server`, `protocol`, `stale`, `closed` or `io`.
    var kind: String {
        switch code {
        case .unreachable: return "unreachable"
        case .timeout: return "timeout"
        case .authorization: return "authorization"
        case .tlsRequired, .headersUnsupported: return "unsupported"
        case .serverError: return "server"
        case .protocolError: return "protocol"
        case .stale: return "stale"
        case .closedByServer, .closedByClient: return "closed"
        case .io: return "io"
        }
    }

    /// Whether the client itself ended the connection.
    var isClosedByClient: Bool { code == .closedByClient }

    /// A sentence saying what happened.
    var description: String {
        switch code {
        case .unreachable(let reason): return "cannot reach the server: \(reason)"
        case .timeout(let phase): return "timed out \(phase)"
        case .authorization(let message): return "the server refused the credentials: \(message)"
        case .tlsRequired: return "the server requires TLS, which this client does not support"
        case .headersUnsupported: return "the server does not support message headers (NATS 2.2 or later is needed)"
        case .serverError(let message): return "the server reported an error and closed the connection: \(message)"
        case .protocolError(let error): return error.description
        case .stale(let count): return "the server did not answer \(count) pings; the connection is stale"
        case .closedByServer: return "the server closed the connection"
        case .io(let reason): return "the connection failed: \(reason)"
        case .closedByClient: return "closed by the client"
        }
    }
}
