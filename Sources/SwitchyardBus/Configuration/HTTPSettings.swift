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
    /// How long a kept-alive connection may wait for its next request before it is closed.
    /// Default: 5 seconds (or the request timeout, when that is shorter).
    public var idleTimeout: Duration
    /// A map tile URL template with `{z}`, `{x}` and `{y}` (OpenStreetMap's scheme), drawn
    /// under the dashboard's tracks by the browser; `nil` (the default) draws the plain grid
    /// only, so the page needs no internet.
    public var tiles: String?
    /// Host names (or addresses) a request's `Host` may name besides the loopback names and
    /// the listen address, such as the machine's name on its network or a proxy's; `"*"`
    /// accepts any (only with a ``token``). Default: none. A request naming another host
    /// gets 421, which keeps DNS rebinding pages out.
    public var hosts: [String]

    /// Creates settings; `port` 8080 on loopback with no token, no tiles and no extra hosts
    /// by default.
    public init(host: String = "127.0.0.1", port: Int = 8080, token: String? = nil,
                maximumConnections: Int = 64, requestTimeout: Duration = .seconds(10), idleTimeout: Duration = .seconds(5),
                tiles: String? = nil, hosts: [String] = []) {
        self.host = host
        self.port = port
        self.token = token
        self.maximumConnections = maximumConnections
        self.requestTimeout = requestTimeout
        self.idleTimeout = idleTimeout
        self.tiles = tiles
        self.hosts = hosts
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
    public var isLoopback: Bool { Self.isLoopbackAddress(host) }

    /// Whether `text` is a loopback address literal: 127.0.0.0/8 or ::1 (in any spelling).
    package static func isLoopbackAddress(_ text: String) -> Bool {
        var address6 = in6_addr()
        if inet_pton(AF_INET6, text, &address6) == 1 {
            var loopback = in6_addr()
            _ = inet_pton(AF_INET6, "::1", &loopback)
            return withUnsafeBytes(of: address6) { address in withUnsafeBytes(of: loopback) { address.elementsEqual($0) } }
        }
        var address = in_addr()
        guard inet_pton(AF_INET, text, &address) == 1 else { return false }
        return UInt32(bigEndian: address.s_addr) >> 24 == 127
    }

    /// `host:port` as a URL authority (`[::1]:8080` for IPv6).
    public var authority: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// Splits `HOST:PORT` (`[IPV6]:PORT`); `nil` when it is not that shape or the host is not a
    /// numeric address.
    package static func parseListen(_ text: String) -> (host: String, port: Int)? {
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
        result.idleTimeout = settings.seconds("idleTimeout", default: min(result.idleTimeout, result.requestTimeout), range: 0.001...3600)
        result.tiles = settings.string("tiles")
        if let tiles = result.tiles, let problem = tileTemplateProblem(tiles) {
            settings.problem("tiles", "\(problem), such as \"https://tile.openstreetmap.org/{z}/{x}/{y}.png\"")
        }
        result.hosts = settings.strings("hosts")
        for (index, host) in result.hosts.enumerated() {
            if host == "*" {
                if result.token == nil {
                    settings.problem("hosts", "\"*\" (any host) needs a token: without one, any web page could reach the bus by DNS rebinding")
                }
            } else if let problem = hostNameProblem(host) {
                settings.problem("hosts[\(index)]", problem)
            }
        }
        return result
    }

    /// Why `name` cannot be a `hosts` entry, or `nil` when it can: a DNS name or an address,
    /// without a scheme, port or path.
    static func hostNameProblem(_ name: String) -> String? {
        let bare = name.hasPrefix("[") && name.hasSuffix("]") ? String(name.dropFirst().dropLast()) : name
        var scratch = in6_addr()
        if inet_pton(AF_INET6, bare, &scratch) == 1 { return nil }
        let allowed = bare.utf8.allSatisfy { byte in
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        }
        guard !bare.isEmpty, bare.utf8.count <= 253, allowed, !bare.hasPrefix("."), !bare.hasPrefix("-") else {
            return "expected a host name or address without a scheme or port, such as \"bus.example.org\" or \"192.168.1.20\", got \(JSON.string(name))"
        }
        return nil
    }
}
