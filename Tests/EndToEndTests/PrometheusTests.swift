import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwitchyardTestSupport
import Testing

/// Where Debian's `prometheus` package puts its programs.
enum PrometheusTools {
    static let promtool = "/usr/bin/promtool"
    static let prometheus = "/usr/bin/prometheus"
    /// Installed, or under CI (where a missing tool must fail, not skip).
    static var testsEnabled: Bool {
        [promtool, prometheus].allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
            || ProcessInfo.processInfo.environment["CI"] != nil
    }
}

/// `/metrics` as Prometheus sees it: `promtool check metrics` accepts the exposition, and a
/// real Prometheus server scrapes the bus and answers queries about it.
@Suite(.serialized, .enabled(if: PrometheusTools.testsEnabled, "needs promtool and prometheus (Debian package prometheus)"))
struct PrometheusTests {
    static let promtool = PrometheusTools.promtool
    static let prometheus = PrometheusTools.prometheus

    /// A plugin of each kind the metrics single out: a failing fetch, a gpsd with no gpsd.
    static func plugins(unusedPort: Int) -> String {
        #"""
        [{"name": "clock", "kind": "timer", "interval": 0.2, "type": "clock/tick"},
         {"name": "rates", "kind": "network-fetch", "on": "clock/tick", "policy": "leading",
          "request": {"url": "http://127.0.0.1:\#(unusedPort)/rates", "timeout": 2}, "retry": {"attempts": 1}},
         {"name": "gps", "kind": "gpsd", "host": "127.0.0.1", "port": \#(unusedPort)},
         {"name": "here", "kind": "location-emitter", "source": {"static": {"latitude": 51.5, "longitude": -0.12}}}]
        """#
    }

    /// The exposition passes `promtool check metrics` (no errors, no lint warnings) and holds
    /// the families the issue names, with the failed fetches counted by kind.
    @Test(.scaledTimeLimit(minutes: 2)) func promtoolAcceptsTheExposition() async throws {
        let (bus, port) = try await RunningBus.startServingHTTP(plugins: Self.plugins(unusedPort: try unusedLocalPort()))
        var text = ""
        let counted = try await eventually(interval: .milliseconds(200)) {
            let response = try await onThread { try HTTPTestClient.request(port: port, "GET", "/metrics") }
            #expect(response.headers["content-type"] == "text/plain; version=0.0.4; charset=utf-8")
            text = response.text
            return text.contains(#"switchyard_fetch_results_total{plugin="rates",outcome="failed",kind="network"}"#)
        }
        #expect(counted, "\(text)")
        for family in ["switchyard_actions_total{bus=\"e2e\",type=\"clock/tick\"}", "switchyard_actions_total{bus=\"e2e\",type=\"other\"}",
                       "switchyard_plugin_received_total{plugin=\"rates\"", "switchyard_plugin_buffer_depth", "switchyard_plugin_restarts_total",
                       "switchyard_journal_bytes", "switchyard_journal_fsync_seconds_bucket{le=\"+Inf\"}", "switchyard_inbox_depth",
                       "switchyard_gpsd_fix_mode{plugin=\"gps\"} 0", "switchyard_gpsd_satellites_used{plugin=\"gps\"}",
                       "switchyard_control_watchers_dropped_total", "switchyard_process_resident_memory_bytes",
                       "switchyard_process_open_fds", "switchyard_uptime_seconds", "# TYPE switchyard_nats_published_total counter"] {
            #expect(text.contains(family), "missing \(family)")
        }
        let directory = try TemporaryDirectory()
        let path = try directory.write("metrics.txt", text)
        let check = Process()
        check.executableURL = URL(fileURLWithPath: Self.promtool)
        check.arguments = ["check", "metrics"]
        check.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        let output = Pipe()
        check.standardOutput = output
        check.standardError = output
        try check.run()
        let said = try await onThread { String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) }
        check.waitUntilExit()
        #expect(check.terminationStatus == 0, "\(said)")
        #expect(said.isEmpty, "promtool: \(said)")
        #expect(await bus.stop() == 0)
    }

    /// A real Prometheus server, given a scrape config with the bus's token, scrapes the bus
    /// and answers a query for `switchyard_actions_total`.
    @Test(.scaledTimeLimit(minutes: 3)) func realPrometheusScrapesTheBus() async throws {
        let token = "prometheus-scrape-token"
        let (bus, port) = try await RunningBus.startServingHTTP(http: #""token": "${SWITCHYARD_HTTP_TOKEN}""#,
                                                               plugins: #"[{"name": "clock", "kind": "timer", "interval": 0.2, "type": "clock/tick"}]"#,
                                                               environment: ["SWITCHYARD_HTTP_TOKEN": token])
        let directory = try TemporaryDirectory()
        let config = try directory.write("prometheus.yml", """
            global:
              scrape_interval: 1s
              scrape_timeout: 1s
            scrape_configs:
              - job_name: switchyard
                static_configs:
                  - targets: ["127.0.0.1:\(port)"]
                authorization:
                  credentials: "\(token)"
            """)
        let webPort = try unusedLocalPort()
        let server = Process()
        server.executableURL = URL(fileURLWithPath: Self.prometheus)
        server.arguments = ["--config.file=\(config)", "--storage.tsdb.path=\(directory.url.appendingPathComponent("data").path)",
                            "--web.listen-address=127.0.0.1:\(webPort)", "--log.level=warn"]
        let log = try directory.write("prometheus.log", "")
        server.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        server.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        try server.run()
        defer { server.signalAndWait(SIGTERM) }
        let query = URL(string: "http://127.0.0.1:\(webPort)/api/v1/query?query=switchyard_actions_total%7Btype%3D%22clock%2Ftick%22%7D")!
        var last = ""
        let scraped = await eventually(timeout: .seconds(90), interval: .milliseconds(500)) {
            guard let (data, _) = try? await URLSession.shared.data(from: query) else { return false }
            last = String(decoding: data, as: UTF8.self)
            let body = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
            let results = (body?["data"] as? [String: Any])?["result"] as? [[String: Any]] ?? []
            guard let value = (results.first?["value"] as? [Any])?.last as? String else { return false }
            return (Double(value) ?? 0) > 0 && (results.first?["metric"] as? [String: String])?["job"] == "switchyard"
        }
        #expect(scraped, "last answer: \(last)\nprometheus log:\n\((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
        let stats = try await onThread { try HTTPTestClient.request(port: port, "GET", "/api/stats", headers: ["Authorization": "Bearer \(token)"]) }
        let responses = ((stats.json["stats"] as? [String: Any])?["http"] as? [String: Any])?["responses"] as? [String: Int]
        #expect((responses?["200"] ?? 0) >= 1)
        #expect(responses?["401"] == nil, "Prometheus sent its token with every scrape")
        #expect(await bus.stop() == 0)
    }
}
