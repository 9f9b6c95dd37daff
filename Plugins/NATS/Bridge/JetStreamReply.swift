import Switchyard

/// A reply from the JetStream API or to a JetStream publish, read from a message.
enum JetStreamReply: Sendable, Hashable {
    /// A successful reply: its JSON object.
    case success(JSON)
    /// An error reply: `error.err_code`, `error.code` and `error.description`.
    case failure(JetStreamAPIError)
    /// A no-responders status (503): nothing listens on the subject — JetStream is off, or
    /// no stream captures a published subject.
    case noResponders

    /// Reads `message`'s status and JSON body.
    init(_ message: NATSMessage) {
        if message.status == 503 {
            self = .noResponders
            return
        }
        guard let json = try? JSON(parsing: message.payload), case .object(let members) = json else {
            let text = String(decoding: message.payload.prefix(120), as: UTF8.self)
            self = .failure(JetStreamAPIError(code: 0, errorCode: 0, description: "unreadable reply \"\(text)\""))
            return
        }
        if let error = members["error"] {
            self = .failure(JetStreamAPIError(
                code: error["code"]?.intValue ?? 0,
                errorCode: error["err_code"]?.intValue ?? 0,
                description: error["description"]?.stringValue ?? error.serialized()
            ))
        } else {
            self = .success(json)
        }
    }
}

/// An error the JetStream API reported.
struct JetStreamAPIError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The HTTP-like status, such as 404.
    var code: Int
    /// JetStream's own error code, such as 10059 (stream not found).
    var errorCode: Int
    /// The server's words.
    var description: String

    /// `err_code` of "stream not found".
    static let streamNotFound = 10059
    /// `err_code` of "consumer not found".
    static let consumerNotFound = 10014
}
