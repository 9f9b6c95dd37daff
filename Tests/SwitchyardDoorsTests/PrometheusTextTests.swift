import Testing
@testable import Switchyard
@testable import SwitchyardBus
@testable import SwitchyardDoors

/// The Prometheus text format writer and the bus's exposition, without a bus.
struct PrometheusTextTests {
    /// Label values escape backslash, quote and newline; numbers are written as the format wants.
    @Test(arguments: [
        (#"a"b"#, #"a\"b"#),
        ("a\\b", "a\\\\b"),
        ("line\nbreak", "line\\nbreak"),
        ("gps/*", "gps/*"),
    ])
    func labelEscaping(value: String, escaped: String) {
        #expect(PrometheusText.escapeLabel(value) == escaped)
    }

    /// Integers lose their fraction; infinities and NaN have their spellings.
    @Test(arguments: [(3.0, "3"), (0.25, "0.25"), (Double.infinity, "+Inf"), (-Double.infinity, "-Inf"), (Double.nan, "NaN")])
    func numbers(value: Double, text: String) {
        #expect(PrometheusText.format(value) == text)
    }

    /// A kind whose family shows its plugins' results, as network-fetch's does.
    private struct Fetcher: Plugin {
        static let kind = "fetcher"
        static let summary = "Shows its results."
        static let settingDescriptions: [SettingDescription] = []
        static var contributions: PluginContributions {
            PluginContributions(metrics: [
                PluginMetricFamily(name: "switchyard_fetch_results_total", type: .counter, help: "Results.") { plugin in
                    plugin.results.map { PluginMetricSample(Double($0.count), labels: [.init("outcome", $0.outcome), .init("kind", $0.kind)]) }
                },
            ])
        }
        init(name: String, settings: PluginSettings) throws { try settings.finish() }
        func run(context: PluginContext) async throws {}
    }

    /// Each family is written once, with HELP and TYPE before its samples, and action types
    /// beyond the tracked ones go to `other`; a kind's family shows only its own plugins.
    @Test func exposition() {
        let plugin = PluginStatistics(name: "fetch", kind: "fetcher", status: .running, restarts: 1, failures: 2, emitted: 5,
                                      droppedActions: 0, queued: 3, lastError: nil, received: 7)
        let statistics = BusStatistics(name: "demo", uptime: .seconds(2), actionsPerSecond: 0,
                                       store: StoreStatistics(reduced: 9, rejected: 0, queued: 0, middlewareDrops: 0, middlewareFailures: 0, effectsStarted: 0,
                                                              effectsInFlight: 0, effectsCancelled: 0, effectsIgnored: 0, effectOutputsDiscarded: 0, subscribers: []),
                                       inboxCapacity: 16, plugins: [plugin], control: nil, journal: nil)
        let snapshot = BusMetrics.Snapshot(
            statistics: statistics, actionsByType: ["a/b": 4], otherActions: 5,
            process: ProcessMetrics(residentBytes: 100, openDescriptors: 4, maximumDescriptors: 1024),
            contributed: PluginMetrics.collect(registry: PluginRegistry(Fetcher.self), statistics: [plugin], state: [:], results: [
                BusCounters.Outcome(plugin: "fetch", outcome: "failed", kind: "timeout"): 2,
                BusCounters.Outcome(plugin: "stranger", outcome: "loaded", kind: ""): 1,
            ]))
        let text = BusMetrics.exposition(of: snapshot)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.contains(#"switchyard_actions_total{bus="demo",type="a/b"} 4"#))
        #expect(lines.contains(#"switchyard_actions_total{bus="demo",type="other"} 5"#))
        #expect(lines.contains(#"switchyard_plugin_received_total{plugin="fetch",kind="fetcher"} 7"#))
        #expect(lines.contains(#"switchyard_fetch_results_total{plugin="fetch",outcome="failed",kind="timeout"} 2"#))
        #expect(!text.contains("stranger"), "results of plugins not of the kind are left out")
        let types = lines.filter { $0.hasPrefix("# TYPE ") }.map { $0.split(separator: " ")[2] }
        #expect(Set(types).count == types.count, "a family is declared once")
        for (index, line) in lines.enumerated() where line.hasPrefix("# TYPE ") {
            #expect(index > 0 && lines[index - 1].hasPrefix("# HELP "))
        }
    }
}
