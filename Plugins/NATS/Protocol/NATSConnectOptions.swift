import SwitchyardBus

/// What the client says about itself in `CONNECT`.
///
/// The bridge always asks for headers (they carry the origin and the message id) and for
/// no-responders replies (so a publish no stream captures fails at once), and turns echo
/// off so that the server never sends a connection its own publishes back.
struct NATSConnectOptions: Sendable, Hashable {
    /// The credentials to present; `nil` for none.
    var credentials: NATSCredentials?
    /// The client name shown by the server's monitoring (`switchyard:<origin>`).
    var name: String
    /// Whether the server may send the client its own messages. Default: `false`.
    var echo: Bool

    /// Creates options; every parameter has the default documented on its property.
    init(credentials: NATSCredentials? = nil, name: String = "switchyard", echo: Bool = false) {
        self.credentials = credentials
        self.name = name
        self.echo = echo
    }

    /// The JSON object after `CONNECT`.
    var json: JSON {
        var members: [String: JSON] = [
            "verbose": false,
            "pedantic": false,
            "echo": .bool(echo),
            "headers": true,
            "no_responders": true,
            "tls_required": false,
            "lang": "swift",
            "version": "switchyard",
            "protocol": 1,
            "name": .string(name),
        ]
        switch credentials {
        case .user(let user, let password)?:
            members["user"] = .string(user)
            members["pass"] = .string(password)
        case .token(let token)?:
            members["auth_token"] = .string(token)
        case nil:
            break
        }
        return .object(members)
    }
}
