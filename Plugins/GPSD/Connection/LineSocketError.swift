#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a ``LineSocket`` could not connect or stopped reading.
struct LineSocketError: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Code: Sendable, Hashable {
        case resolve
        case connect
        case timeout
        case pathTooLong
        case system
        case read
        case endOfStream
    }

    private let code: Code
    /// A sentence naming the endpoint and the reason, such as
    /// `cannot connect to 127.0.0.1:2947: Connection refused`.
    let description: String

    private init(_ code: Code, _ description: String) {
        self.code = code
        self.description = description
    }

    /// The host name did not resolve.
    static func resolve(_ endpoint: GPSDEndpoint, _ reason: String) -> LineSocketError {
        LineSocketError(.resolve, "cannot resolve \(endpoint): \(reason)")
    }

    /// `connect` failed, with the system's reason.
    static func connect(_ endpoint: GPSDEndpoint, errno code: Int32) -> LineSocketError {
        LineSocketError(.connect, "cannot connect to \(endpoint): \(systemMessage(code))")
    }

    /// `connect` did not finish within the timeout.
    static func timeout(_ endpoint: GPSDEndpoint, after timeout: Duration) -> LineSocketError {
        LineSocketError(.timeout, "cannot connect to \(endpoint): no answer within \(timeout)")
    }

    /// A Unix socket path longer than the system allows (107 bytes on Linux).
    static func pathTooLong(_ path: String, limit: Int) -> LineSocketError {
        LineSocketError(.pathTooLong, "the socket path \(path) is longer than \(limit) bytes")
    }

    /// A system call needed to set up the connection failed.
    static func system(_ call: String, errno code: Int32) -> LineSocketError {
        LineSocketError(.system, "\(call) failed: \(systemMessage(code))")
    }

    /// Reading from an established connection failed.
    static func read(_ endpoint: GPSDEndpoint, errno code: Int32) -> LineSocketError {
        LineSocketError(.read, "lost the connection to \(endpoint): \(systemMessage(code))")
    }

    /// The peer closed the connection.
    static func endOfStream(_ endpoint: GPSDEndpoint) -> LineSocketError {
        LineSocketError(.endOfStream, "\(endpoint) closed the connection")
    }

    private static func systemMessage(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
