import Foundation
import SwitchyardTestSupport
import Testing

/// A bus without a token on the real executable keeps web pages out: a DNS-rebinding page
/// (a foreign `Host`) gets 421, a cross-site dispatch (a foreign `Origin`, or no JSON
/// `Content-Type`, as `navigator.sendBeacon` sends) gets 403 or 415, and none of them is
/// journaled.
@Suite(.serialized)
struct HTTPSiteTests {
    /// Refused requests get their status and a JSON error; the accepted ones are the only
    /// actions journaled.
    @Test(.scaledTimeLimit(minutes: 2)) func foreignSitesAreRefused() async throws {
        let (bus, port) = try await RunningBus.startServingHTTP(http: #""hosts": ["bus.example"]"#)
        let json = "application/json"
        let refused: [(String, String, [String: String], Int, String)] = [
            ("GET", "/api/state", ["Host": "evil.example:\(port)"], 421, "unknown-host"),
            ("POST", "/api/dispatch", ["Host": "evil.example", "Content-Type": json], 421, "unknown-host"),
            ("POST", "/api/dispatch", ["Origin": "http://evil.example", "Content-Type": "text/plain"], 403, "cross-origin"),
            ("POST", "/api/dispatch", ["Origin": "http://evil.example"], 403, "cross-origin"),
            ("POST", "/api/dispatch", ["Origin": "http://evil.example", "Content-Type": json], 403, "cross-origin"),
            ("POST", "/api/dispatch", ["Origin": "null", "Content-Type": json], 403, "cross-origin"),
            ("POST", "/api/dispatch", [:], 415, "unsupported-media-type"),
            ("POST", "/api/dispatch", ["Content-Type": "text/plain;charset=UTF-8"], 415, "unsupported-media-type"),
            ("POST", "/api/dispatch", ["Content-Type": "application/jsonp"], 415, "unsupported-media-type"),
        ]
        for (method, target, headers, status, code) in refused {
            let response = try await onThread {
                try HTTPTestClient.request(port: port, method, target, headers: headers, body: method == "POST" ? #"{"type":"evil/sent"}"# : "")
            }
            #expect(response.status == status, "\(method) \(target) \(headers): \(response.text)")
            #expect((response.json["error"] as? [String: Any])?["code"] as? String == code, "\(headers): \(response.text)")
        }
        let accepted: [[String: String]] = [
            ["Content-Type": json],
            ["Content-Type": "Application/JSON; charset=utf-8"],
            ["Content-Type": json, "Origin": "http://127.0.0.1:\(port)", "Host": "127.0.0.1:\(port)"],
            ["Content-Type": json, "Host": "localhost:\(port)"],
            ["Content-Type": json, "Host": "bus.example:\(port)"],
        ]
        for headers in accepted {
            let response = try await onThread {
                try HTTPTestClient.request(port: port, "POST", "/api/dispatch", headers: headers, body: #"{"type":"good/sent"}"#)
            }
            #expect(response.status == 200, "\(headers): \(response.text)")
        }
        // Probes come by any name.
        let probe = try await onThread { try HTTPTestClient.request(port: port, "GET", "/healthz", headers: ["Host": "10.1.2.3:\(port)"]) }
        #expect(probe.status == 200)
        let types = try await journalActions(bus).compactMap { $0["type"] as? String }.filter { $0.hasSuffix("/sent") }
        #expect(types == Array(repeating: "good/sent", count: accepted.count))
        #expect(await bus.stop() == 0)
    }
}
