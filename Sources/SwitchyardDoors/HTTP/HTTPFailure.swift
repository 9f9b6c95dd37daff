/// A request the server refuses, with the status it answers and a message for people.
///
/// Every failure of the parser ends the connection after the response: the request's framing
/// can no longer be trusted, so nothing after it is read.
struct HTTPFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The status code sent back.
    let status: Int
    /// What went wrong, in words (the body of the response).
    let message: String

    init(status: Int, _ message: String) {
        self.status = status
        self.message = message
    }

    var description: String { "\(status) \(HTTPResponse.reason(status)): \(message)" }

    /// The request is not HTTP/1.x as RFC 9112 frames it.
    static func badRequest(_ message: String) -> HTTPFailure { HTTPFailure(status: 400, message) }
    /// The request line is longer than the limit.
    static func requestLineTooLong(limit: Int) -> HTTPFailure {
        HTTPFailure(status: 414, "the request line is longer than \(limit) bytes")
    }
    /// The header fields are larger, or more, than the limits.
    static func headersTooLarge(_ message: String) -> HTTPFailure { HTTPFailure(status: 431, message) }
    /// The body is larger than the limit (refused before it is read).
    static func bodyTooLarge(length: Int, limit: Int) -> HTTPFailure {
        HTTPFailure(status: 413, "the body is \(length) bytes; at most \(limit) are accepted")
    }
    /// A chunked request body: the server reads only bodies framed by `Content-Length`.
    static let chunkedBody = HTTPFailure(status: 411, "chunked request bodies are not supported; send the body with a Content-Length")
    /// A transfer coding other than chunked.
    static func unsupportedTransferEncoding(_ value: String) -> HTTPFailure {
        HTTPFailure(status: 501, "Transfer-Encoding \(value) is not supported; send the body with a Content-Length")
    }
    /// An HTTP version other than 1.0 and 1.1.
    static func unsupportedVersion(_ version: String) -> HTTPFailure {
        HTTPFailure(status: 505, "\(version) is not supported; use HTTP/1.1")
    }
    /// An `Expect` other than `100-continue`.
    static func unsupportedExpectation(_ value: String) -> HTTPFailure {
        HTTPFailure(status: 417, "Expect: \(value) is not supported (only 100-continue is)")
    }
    /// The client took longer than the limit to send its request.
    static func requestTimeout(_ limit: Duration) -> HTTPFailure {
        HTTPFailure(status: 408, "the request did not arrive within \(limit)")
    }
}
