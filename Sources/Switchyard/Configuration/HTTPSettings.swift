import Glibc

/// The `"bus.http"` section: where the bus serves its dashboard, metrics, health and API over
/// HTTP/1.1. Without the section the bus serves no HTTP at all.
///
/// ```json
/// "http": {"listen": "127.0.0.1:8080", "token": "${SWITCHYARD_HTTP_TOKEN}"}
/// ```
public struct HTTPSettings: Sendable, Hashable {
    /// The numeric address to listen on (`127.0.0.1`, `::1`, `0.0.0.0`); `localhost` is read
    /// as `127.0.0.1`.
    public var host: String
    /// The TCP port; 0 lets the system choose one (the ready line names it).
    public var port: Int
    /// The token clients must present (`Authorization: Bearer`, `?token=` once, then a
    /// cookie); `nil` serves everyone who can connect, which is allowed on loopback only.
    /// `/healthz` and `/readyz` never need it.
    public var token: String?
    /// How many connections are served at once; one more gets 503. Default: 64.
    public var maximumConnections: Int
    /// How long a client may take to send one request; then it gets 408. Default: 10 seconds.
    public var requestTimeout: Duration
    /// A map tile URL template with `{z}`, `{x}` and `{y}` (OpenStreetMap's scheme), drawn
    /// under the dashboard's tracks by the browser; `nil` (the default) draws the plain grid
    /// only, so the page needs no internet.
    public var tiles: String?

    /// Creates settings; `port` 8080 on loopback with no token and no tiles by default.
    public init(host: String = "127.0.0.1", port: Int = 8080, token: String? = nil,
                maximumConnections: Int = 64, requestTimeout: Duration = .seconds(10), tiles: String? = nil) {
        self.host = host
        self.port = port
        self.token = token
        self.maximumConnections = maximumConnections
        self.requestTimeout = requestTimeout
        self.tiles = tiles
    }

    /// Why `template` cannot be a tile URL template, or `nil` when it can: http or https only
    /// (the page puts it in an image's address), with each of `{z}`, `{x}` and `{y}`.
    static func tileTemplateProblem(_ template: String) -> String? {
        guard template.hasPrefix("https://") || template.hasPrefix("http://") else {
            return "expected an http:// or https:// URL template"
        }
        guard !template.contains(where: { $0.isWhitespace || $0 == "\"" || $0 == "<" || $0 == ">" }) else {
            return "expected a URL without spaces, quotes or angle brackets"
        }
        let missing = ["{z}", "{x}", "{y}"].filter { !template.contains($0) }
        guard missing.isEmpty else {
            return "expected a template with {z}, {x} and {y}; \(missing.joined(separator: ", ")) missing"
        }
        return nil
    }

    /// Whether ``host`` is a loopback address (127.0.0.0/8 or ::1): only processes on this
    /// machine can connect.
    public var isLoopback: Bool {
        if host == "::1" { return true }
        var address = in_addr()
        guard inet_pton(AF_INET, host, &address) == 1 else { return false }
        return UInt32(bigEndian: address.s_addr) >> 24 == 127
    }

    /// `host:port` as a URL authority (`[::1]:8080` for IPv6).
    public var authority: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// Splits `HOST:PORT` (`[IPV6]:PORT`); `nil` when it is not that shape or the host is not a
    /// numeric address.
    static func parseListen(_ text: String) -> (host: String, port: Int)? {
        var hostPart: Substring
        var portPart: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else { return nil }
            hostPart = text[text.index(after: text.startIndex)..<close]
            portPart = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":"), !text[..<colon].contains(":") else { return nil }
            hostPart = text[..<colon]
            portPart = text[text.index(after: colon)...]
        }
        if hostPart == "localhost" { hostPart = "127.0.0.1" }
        guard !portPart.isEmpty, portPart.allSatisfy(\.isASCII), portPart.allSatisfy(\.isNumber),
              let port = Int(portPart), (0...65535).contains(port) else { return nil }
        let host = String(hostPart)
        var scratch = in6_addr()
        guard inet_pton(AF_INET, host, &scratch) == 1 || inet_pton(AF_INET6, host, &scratch) == 1 else { return nil }
        return (host, port)
    }

    /// Reads the `"http"` object, recording problems (and unknown keys) in `settings`.
    static func read(from settings: PluginSettings) -> HTTPSettings {
        var result = HTTPSettings()
        let listen = settings.string("listen", default: result.authority)
        if let (host, port) = parseListen(listen) {
            result.host = host
            result.port = port
        } else {
            settings.problem("listen", "expected HOST:PORT with a numeric address, such as \"127.0.0.1:8080\" or \"[::1]:8080\", got \(settings.describe(.string(listen), at: "listen"))")
        }
        result.token = settings.string("token")
        if let token = result.token, token.isEmpty || token.contains(where: { $0.isWhitespace || !$0.isASCII }) {
            settings.problem("token", "expected a non-empty token of printable ASCII without spaces")
        } else if result.token == nil, !result.isLoopback, parseListen(listen) != nil {
            settings.problem("token", "a token is required when listening on \(result.host), which is not a loopback address (set \"token\": \"${SWITCHYARD_HTTP_TOKEN}\")")
        }
        result.maximumConnections = settings.int("maxConnections", default: result.maximumConnections, range: 1...10_000)
        result.requestTimeout = settings.seconds("requestTimeout", default: result.requestTimeout, range: 0.001...3600)
        result.tiles = settings.string("tiles")
        if let tiles = result.tiles, let problem = tileTemplateProblem(tiles) {
            settings.problem("tiles", "\(problem), such as \"https://tile.openstreetmap.org/{z}/{x}/{y}.png\"")
        }
        return result
    }
}
