import SwitchyardBus

/// Why a request did not produce a value: the payload of `NAME/failed`.
struct FetchFailure: Error, Sendable, Hashable {
    enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The connection failed or broke (refused, unreachable, reset, TLS).
        case network
        /// An attempt took longer than the `timeout` setting.
        case timeout
        /// The server answered with a status that is not 2xx, or a redirect was refused.
        case http
        /// The body is not JSON, or has nothing at the `extract` path.
        case decode
        /// The body is larger than `maxResponseBytes`; the transfer was cut off.
        case tooLarge = "too-large"
        /// A placeholder had no usable value, so no request was sent.
        case template
    }

    var kind: Kind
    /// The HTTP status of the last response, when there was one.
    var status: Int?
    /// A readable sentence, free of secrets.
    var message: String
    /// Attempts made; 0 when no request was sent.
    var attempts: Int
    /// The placeholder path at fault, for ``Kind/template``.
    var path: String?

    init(kind: Kind, status: Int? = nil, message: String, attempts: Int, path: String? = nil) {
        self.kind = kind
        self.status = status
        self.message = message
        self.attempts = attempts
        self.path = path
    }

    /// The fields of the `failed` payload, without the request id and timing.
    var json: [String: JSON] {
        var fields: [String: JSON] = [
            "kind": .string(kind.rawValue),
            "status": status.map { .integer(Int64($0)) } ?? .null,
            "message": .string(message),
            "attempts": .integer(Int64(attempts)),
        ]
        if let path { fields["path"] = .string(path) }
        return fields
    }
}
