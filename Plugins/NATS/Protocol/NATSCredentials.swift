/// How the client proves who it is: a user and password, or a token.
///
/// The description never shows a secret, so credentials can be logged and compared in tests.
public enum NATSCredentials: Sendable, Hashable, CustomStringConvertible {
    /// A user name and its password (`--user` / `--pass` on the server).
    case user(String, password: String)
    /// An authorization token (`--auth` on the server).
    case token(String)

    /// `user "alice"` or `a token`, never the secret itself.
    public var description: String {
        switch self {
        case .user(let user, _): return "user \"\(user)\""
        case .token: return "a token"
        }
    }
}
