import FoundationEssentials
import SwitchyardBus

/// One server to connect to, from a `nats://[user:password@]host[:port]` URL.
///
/// The description is the URL without credentials, so an endpoint can be logged and put in
/// actions.
public struct NATSEndpoint: Sendable, Hashable, CustomStringConvertible {
    /// Why a URL cannot be used.
    public struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong with the URL.
        public var description: String
    }

    /// The port when the URL names none.
    public static let defaultPort = 4222

    /// A host name or an IP address (IPv6 without brackets).
    public var host: String
    /// The TCP port.
    public var port: Int
    /// Credentials written in the URL; settings override them.
    public var credentials: NATSCredentials?

    /// Creates an endpoint.
    public init(host: String, port: Int = NATSEndpoint.defaultPort, credentials: NATSCredentials? = nil) {
        self.host = host
        self.port = port
        self.credentials = credentials
    }

    /// Reads `nats://host`, `nats://host:port`, `nats://[::1]:4222`, `nats://user:pass@host`
    /// or `nats://token@host`; percent escapes in credentials are decoded.
    /// - Throws: ``ParseError`` saying what is wrong: another scheme (TLS is not supported),
    ///   a missing host, a bad port or a path.
    public init(parsing text: String) throws(ParseError) {
        let shown = Self.redacted(text)
        let trimmed = text[...].trimmingSpaces
        guard let schemeEnd = trimmed.firstRange(of: "://") else {
            throw ParseError(description: "expected a URL like nats://HOST:PORT, got \"\(shown)\"")
        }
        let scheme = trimmed[..<schemeEnd.lowerBound].lowercased()
        switch scheme {
        case "nats":
            break
        case "tls", "wss", "ws":
            throw ParseError(description: "\(scheme):// is not supported (this client speaks plain TCP); use nats://")
        default:
            throw ParseError(description: "expected the scheme nats://, got \"\(scheme)://\"")
        }
        var rest = trimmed[schemeEnd.upperBound...]
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        guard !rest.contains("/"), !rest.contains("?") else {
            throw ParseError(description: "a NATS URL has no path or query, got \"\(shown)\"")
        }
        var credentials: NATSCredentials?
        if let at = rest.lastIndex(of: "@") {
            credentials = try Self.credentials(rest[..<at])
            rest = rest[rest.index(after: at)...]
        }
        let hostText: Substring
        var portText: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { throw ParseError(description: "an IPv6 address misses its closing \"]\" in \"\(shown)\"") }
            hostText = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw ParseError(description: "expected \":PORT\" after the address in \"\(shown)\"") }
                portText = after.dropFirst()
            }
        } else if let colon = rest.lastIndex(of: ":") {
            hostText = rest[..<colon]
            portText = rest[rest.index(after: colon)...]
        } else {
            hostText = rest
        }
        guard !hostText.isEmpty else { throw ParseError(description: "the URL \"\(shown)\" names no host") }
        var port = Self.defaultPort
        if let portText {
            guard let number = Int(portText), (1...65535).contains(number) else {
                throw ParseError(description: "expected a port 1-65535, got \"\(portText)\"")
            }
            port = number
        }
        self.init(host: String(hostText), port: port, credentials: credentials)
    }

    /// `nats://host:port`, without credentials.
    public var description: String {
        host.contains(":") ? "nats://[\(host)]:\(port)" : "nats://\(host):\(port)"
    }

    /// `text` with any credentials replaced by `***`, for messages about a URL.
    public static func redacted(_ text: String) -> String {
        guard let schemeEnd = text.firstRange(of: "://"), let at = text.lastIndex(of: "@"), at > schemeEnd.upperBound else { return text }
        return String(text[..<schemeEnd.upperBound]) + "***" + String(text[at...])
    }

    private static func credentials(_ userInfo: Substring) throws(ParseError) -> NATSCredentials? {
        guard !userInfo.isEmpty else { return nil }
        if let colon = userInfo.firstIndex(of: ":") {
            let user = try percentDecoded(userInfo[..<colon])
            guard !user.isEmpty else { throw ParseError(description: "the URL has a password but no user") }
            return .user(user, password: try percentDecoded(userInfo[userInfo.index(after: colon)...]))
        }
        return .token(try percentDecoded(userInfo))
    }

    private static func percentDecoded(_ text: Substring) throws(ParseError) -> String {
        guard let bytes = PercentEncoding.decodeBytes(text) else {
            throw ParseError(description: "a \"%\" in the URL's credentials is not followed by two hex digits")
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
