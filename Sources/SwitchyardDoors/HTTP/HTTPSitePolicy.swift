/// Which web sites may reach the bus through a browser: the defence against DNS rebinding
/// (a page whose name is made to resolve to 127.0.0.1 reads the state and dispatches) and
/// cross-site requests (a page posts to `http://127.0.0.1:8080/api/dispatch`).
///
/// A request's `Host` must name the bus: a loopback name (`localhost`, `127.x.x.x`, `[::1]`),
/// the listen address when it is a specific one, or one of the configured ``HTTPSettings/hosts``
/// (`"*"` there accepts any). A request that changes something (any method but `GET` and
/// `HEAD`) with an `Origin` must come from the bus's own origin (`http://` or `https://` and
/// the request's `Host`); `Origin: null` is refused. Requests without `Origin` (curl, scripts)
/// are not cross-site and pass.
struct HTTPSitePolicy: Sendable, Hashable {
    /// The host names accepted, lower-case, IPv6 addresses without brackets.
    let names: Set<String>
    /// Whether any `Host` is accepted (`"*"` in the hosts, which needs a token).
    let acceptsAnyHost: Bool

    /// The policy of a server with `settings`.
    init(settings: HTTPSettings) {
        var names: Set<String> = ["localhost"]
        if !["0.0.0.0", "::"].contains(settings.host) { names.insert(settings.host.lowercased()) }
        for host in settings.hosts where host != "*" { names.insert(Self.bare(host.lowercased())) }
        self.names = names
        acceptsAnyHost = settings.hosts.contains("*")
    }

    /// The refusal `request` gets, or `nil` when it may be served.
    func refusal(of request: HTTPRequest) -> HTTPResponse? {
        let host = request.header("host") ?? ""
        guard acceptsAnyHost || accepts(host: host) else {
            return .error(status: 421, code: "unknown-host",
                          "this bus does not serve the host \(JSON.string(host)); add it to \"bus.http.hosts\" if the bus is meant to be reached by that name")
        }
        guard request.method != "GET", request.method != "HEAD", let origin = request.header("origin") else { return nil }
        let own = ["http://", "https://"].map { $0 + host.lowercased() }
        guard own.contains(origin.lowercased()) else {
            return .error(status: 403, code: "cross-origin",
                          "\(request.method) from the origin \(JSON.string(origin)) is refused: only pages served by this bus may change it")
        }
        return nil
    }

    /// Whether the `Host` field `value` (`name`, `name:port`, `[v6]:port`) names the bus.
    private func accepts(host value: String) -> Bool {
        var name = Substring(value.lowercased())
        if name.hasPrefix("[") {
            guard let close = name.firstIndex(of: "]") else { return false }
            name = name[name.index(after: name.startIndex)..<close]
        } else if let colon = name.lastIndex(of: ":") {
            name = name[..<colon]
        }
        // A fully qualified name may end in a dot (`localhost.`).
        if name.hasSuffix(".") { name = name.dropLast() }
        let text = String(name)
        return names.contains(text) || HTTPSettings.isLoopbackAddress(text)
    }

    /// `name` without the brackets of an IPv6 literal.
    private static func bare(_ name: String) -> String {
        name.hasPrefix("[") && name.hasSuffix("]") ? String(name.dropFirst().dropLast()) : name
    }
}
