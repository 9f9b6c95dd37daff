import SwitchyardBus

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

    /// Reads the reply to a publish. A plain acknowledgement — `{"stream":"NAME","seq":N}`,
    /// with `,"duplicate":true` before the brace when the stream already held the message id,
    /// spaces allowed after commas and colons (servers before 2.10 write them) — is
    /// recognised from its bytes without building a JSON tree, one shared value per outcome,
    /// since it arrives once per action; any other reply (an error, a domain, more members)
    /// is read in full as ``init(_:)`` reads it.
    init(acknowledgement message: NATSMessage) {
        if message.headers == nil, let duplicate = Self.plainAcknowledgement(message.payload) {
            self = .success(duplicate ? Self.duplicateAcknowledgement : Self.storedAcknowledgement)
        } else {
            self.init(message)
        }
    }

    private static let storedAcknowledgement: JSON = ["stored": true]
    private static let duplicateAcknowledgement: JSON = ["duplicate": true]

    /// Whether `payload` is a plain acknowledgement of a duplicate (`true`) or of a newly
    /// stored message (`false`); `nil` when it is anything else.
    static func plainAcknowledgement(_ payload: [UInt8]) -> Bool? {
        payload.withUnsafeBufferPointer { bytes -> Bool? in
            var reader = JSONReader(bytes)
            guard reader.takePadded(#"{"stream":"#), reader.streamName(),
                  reader.takePadded(","), reader.takePadded(#""seq":"#), reader.unsignedInteger() != nil
            else { return nil }
            reader.skipSpaces()
            if reader.takePadded("}") { return reader.atEnd ? false : nil }
            guard reader.takePadded(","), reader.takePadded(#""duplicate":"#), reader.takePadded("true"), reader.takePadded("}"), reader.atEnd else { return nil }
            return true
        }
    }
}

extension JSONReader {
    /// Takes `text`, then the spaces after it.
    fileprivate mutating func takePadded(_ text: StaticString) -> Bool {
        guard take(text) else { return false }
        skipSpaces()
        return true
    }

    /// Takes a non-empty stream name written without escapes, then the spaces after it.
    fileprivate mutating func streamName() -> Bool {
        guard let name = plainString(), !name.isEmpty else { return false }
        skipSpaces()
        return true
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
    /// `err_code` of a publish the stream would not store (status 503): a limit such as
    /// `max_msgs` or `max_bytes` reached under `discard: new` ("maximum messages exceeded").
    static let storeFailed = 10077
}
