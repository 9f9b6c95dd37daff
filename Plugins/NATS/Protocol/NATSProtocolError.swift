/// Bytes from a NATS server that do not follow the client protocol.
///
/// The connection that received them is closed and the bridge reconnects; the message says
/// what was wrong and quotes the start of the offending line.
struct NATSProtocolError: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Code: Sendable, Hashable {
        case unknownOperation(String)
        case malformed(operation: String, line: String)
        case controlLineTooLong(limit: Int)
        case messageTooLarge(size: Int, limit: Int)
        case missingTerminator(subject: String)
        case malformedHeaders(String)
        case malformedInfo(String)
    }

    private let code: Code

    private init(_ code: Code) {
        self.code = code
    }

    /// The longest excerpt of a bad line quoted in a message.
    static let excerptLength = 80

    /// An operation the client protocol does not define.
    static func unknownOperation(_ line: String) -> NATSProtocolError {
        NATSProtocolError(.unknownOperation(excerpt(line)))
    }

    /// A known operation whose arguments cannot be read.
    static func malformed(_ operation: String, line: String) -> NATSProtocolError {
        NATSProtocolError(.malformed(operation: operation, line: excerpt(line)))
    }

    /// A control line without its end within `limit` bytes.
    static func controlLineTooLong(limit: Int) -> NATSProtocolError {
        NATSProtocolError(.controlLineTooLong(limit: limit))
    }

    /// A message larger than the parser accepts.
    static func messageTooLarge(size: Int, limit: Int) -> NATSProtocolError {
        NATSProtocolError(.messageTooLarge(size: size, limit: limit))
    }

    /// A message whose payload is not followed by CRLF.
    static func missingTerminator(subject: String) -> NATSProtocolError {
        NATSProtocolError(.missingTerminator(subject: subject))
    }

    /// A header block that does not start with `NATS/1.0` or has a line without a colon.
    static func malformedHeaders(_ reason: String) -> NATSProtocolError {
        NATSProtocolError(.malformedHeaders(reason))
    }

    /// An INFO line whose JSON cannot be read.
    static func malformedInfo(_ reason: String) -> NATSProtocolError {
        NATSProtocolError(.malformedInfo(reason))
    }

    /// A sentence saying what the server sent.
    var description: String {
        switch code {
        case .unknownOperation(let line):
            return "unknown operation from the server: \(quoted(line))"
        case .malformed(let operation, let line):
            return "malformed \(operation) from the server: \(quoted(line))"
        case .controlLineTooLong(let limit):
            return "a control line from the server is longer than \(limit) bytes"
        case .messageTooLarge(let size, let limit):
            return "a message of \(size) bytes from the server is larger than the limit of \(limit) bytes"
        case .missingTerminator(let subject):
            return "the payload of a message on \(quoted(subject)) is not followed by CRLF"
        case .malformedHeaders(let reason):
            return "malformed message headers: \(reason)"
        case .malformedInfo(let reason):
            return "malformed INFO from the server: \(reason)"
        }
    }

    private static func excerpt(_ line: String) -> String {
        line.count > excerptLength ? String(line.prefix(excerptLength)) + "…" : line
    }

    private func quoted(_ text: String) -> String {
        "\"" + text + "\""
    }
}
