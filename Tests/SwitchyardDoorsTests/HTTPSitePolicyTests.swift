import Testing
@testable import Switchyard
@testable import SwitchyardBus
@testable import SwitchyardDoors

/// Which `Host` and `Origin` the HTTP server serves (DNS rebinding, cross-site requests), and
/// how `bus.http.hosts` is validated.
struct HTTPSitePolicyTests {
    private func status(_ settings: HTTPSettings, _ method: String = "GET", host: String?, origin: String? = nil) -> Int? {
        var headers: [(name: String, value: String)] = []
        if let host { headers.append(("host", host)) }
        if let origin { headers.append(("origin", origin)) }
        return HTTPSitePolicy(settings: settings).refusal(of: HTTPRequest(method: method, target: "/api/state", headers: headers))?.status
    }

    /// Loopback names and addresses are the bus by default; any other name is refused with
    /// 421, a port or a trailing dot changing nothing.
    @Test(arguments: [
        ("localhost", nil), ("localhost:8080", nil), ("LocalHost.:8080", nil), ("127.0.0.1", nil), ("127.1.2.3:80", nil),
        ("[::1]:8080", nil), ("[0:0:0:0:0:0:0:1]", nil),
        ("evil.example", 421), ("evil.example:8080", 421), ("localhost.evil.example", 421), ("128.0.0.1", 421),
        ("[::2]:8080", 421), ("", 421), ("[::1", 421),
    ] as [(String, Int?)])
    func hostOnLoopback(host: String, expected: Int?) {
        #expect(status(HTTPSettings(), host: host) == expected)
    }

    /// The listen address is the bus's own, unless it is a wildcard; configured names are
    /// accepted in any case, and `"*"` accepts every name.
    @Test func listenAddressAndConfiguredHosts() {
        let own = HTTPSettings(host: "192.168.1.20", token: "t", hosts: ["Bus.Example.org", "[fd00::5]"])
        #expect(status(own, host: "192.168.1.20:8080") == nil)
        #expect(status(own, host: "bus.example.ORG") == nil)
        #expect(status(own, host: "[fd00::5]:8080") == nil)
        #expect(status(own, host: "192.168.1.21:8080") == 421)
        let wildcard = HTTPSettings(host: "0.0.0.0", token: "t")
        #expect(status(wildcard, host: "0.0.0.0:8080") == 421)
        #expect(status(wildcard, host: "localhost:8080") == nil)
        #expect(status(HTTPSettings(host: "0.0.0.0", token: "t", hosts: ["*"]), host: "anything.example") == nil)
    }

    /// A request that changes something is refused with 403 from another origin (`null`
    /// included); from the bus's own origin or with no `Origin` at all it passes. Reading is
    /// not checked: a cross-site page cannot read the answer.
    @Test(arguments: [
        ("POST", "http://evil.example", 403), ("POST", "null", 403), ("POST", "http://127.0.0.1:9090", 403),
        ("POST", "http://localhost:8080", 403), ("PUT", "http://evil.example", 403),
        ("POST", "http://127.0.0.1:8080", nil), ("POST", "HTTPS://127.0.0.1:8080", nil), ("POST", nil, nil),
        ("GET", "http://evil.example", nil),
    ] as [(String, String?, Int?)])
    func originOfChanges(method: String, origin: String?, expected: Int?) {
        #expect(status(HTTPSettings(), method, host: "127.0.0.1:8080", origin: origin) == expected)
    }

    /// `hosts` takes names and addresses; a URL, a port or `"*"` without a token is a
    /// problem at its path, and a misspelt key gets a did-you-mean.
    @Test func hostsSetting() throws {
        func problems(_ http: String) -> String {
            do {
                _ = try BusConfiguration.parse(#"{"bus": {"http": {\#(http)}}, "plugins": []}"#, file: "x.json", environment: [:], knownKinds: [])
                return ""
            } catch {
                return error.description
            }
        }
        let parsed = try BusConfiguration.parse(#"{"bus": {"http": {"hosts": ["bus.local", "10.0.0.2", "[::5]"]}}, "plugins": []}"#,
                                                file: "x.json", environment: [:], knownKinds: [])
        #expect(parsed.bus.http?.hosts == ["bus.local", "10.0.0.2", "[::5]"])
        #expect(problems(#""hosts": ["http://bus.local"]"#).contains("bus.http.hosts[0]: expected a host name or address"))
        #expect(problems(#""hosts": ["ok.example", "bus.local:8080"]"#).contains("bus.http.hosts[1]"))
        #expect(problems(#""hosts": "bus.local""#).contains("expected an array of strings"))
        #expect(problems(#""hosts": ["*"]"#).contains("needs a token"))
        #expect(problems(#""hosts": ["*"], "token": "secret-token""#).isEmpty)
        #expect(problems(#""hostz": ["bus.local"]"#).contains("hosts"))
    }
}
