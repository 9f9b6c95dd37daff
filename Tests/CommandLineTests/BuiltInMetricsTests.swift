import Testing
@testable import Switchyard
@testable import SwitchyardBus
@testable import SwitchyardDoors
@testable import switchyard

/// The families the built-in kinds contribute to `/metrics` come out exactly as the core wrote
/// them when it named gpsd, NATS and network-fetch itself.
struct BuiltInMetricsTests {
    private static func plugin(_ name: String, _ kind: String, _ reported: [String: Int64]) -> PluginStatistics {
        var plugin = PluginStatistics(name: name, kind: kind, status: .running, restarts: 1, failures: 0, emitted: 5, droppedActions: 0,
                                      queued: 3, lastError: nil, received: 7)
        plugin.reported = reported
        return plugin
    }

    /// The whole exposition of a bus with two NATS bridges, a gpsd feed, a fetcher and a timer,
    /// byte for byte as the core wrote it before the kinds contributed their families, plus the
    /// per-origin families NATS added since.
    @Test func exposition() {
        let plugins = [Self.plugin("nats2", "nats", ["published": 5, "received": 2, "buffered": 1, "reconnects": 3]),
                       Self.plugin("gps", "gpsd", ["readPauses": 2, "overrunDisconnects": 1, "lines": 9]),
                       Self.plugin("fetch", "network-fetch", [:]), Self.plugin("nats1", "nats", ["published": 7]),
                       Self.plugin("clock", "timer", ["ticks": 4])]
        let statistics = BusStatistics(
            name: "demo", uptime: .seconds(2), actionsPerSecond: 0,
            store: StoreStatistics(reduced: 9, rejected: 0, queued: 0, middlewareDrops: 0, middlewareFailures: 0, effectsStarted: 0, effectsInFlight: 0,
                                   effectsCancelled: 0, effectsIgnored: 0, effectOutputsDiscarded: 0, subscribers: []),
            inboxCapacity: 16, plugins: plugins, control: nil, journal: nil)
        let state: JSON = ["gps": ["fix": ["mode": 3], "satellites": ["used": 7, "visible": 12], "status": "connected"],
                           "nats2": ["origins": ["truck-a": ["received": 3, "lastSeen": "2027-01-15T08:00:00.250Z", "lag": 0.125, "maxLag": 2.5],
                                                     "truck-b": ["received": 1, "lastSeen": "2027-01-15T08:00:01.000Z"]]]]
        let results: [BusCounters.Outcome: UInt64] = [
            BusCounters.Outcome(plugin: "fetch", outcome: "failed", kind: "timeout"): 2,
            BusCounters.Outcome(plugin: "fetch", outcome: "failed", kind: "http"): 1,
            BusCounters.Outcome(plugin: "fetch", outcome: "loaded", kind: ""): 4,
            BusCounters.Outcome(plugin: "stranger", outcome: "loaded", kind: ""): 1,
        ]
        let snapshot = BusMetrics.Snapshot(
            statistics: statistics, actionsByType: ["a/b": 4], otherActions: 5,
            process: ProcessMetrics(residentBytes: 100, openDescriptors: 4, maximumDescriptors: 1024),
            contributed: PluginMetrics.collect(registry: BuiltInPlugins.registry, statistics: plugins, state: state, results: results))
        let lines = BusMetrics.exposition(of: snapshot).split(separator: "\n", omittingEmptySubsequences: false)
        let expected = (Self.expected + "\n").split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == expected.count)
        for (index, (line, want)) in zip(lines, expected).enumerated() {
            #expect(line == want, "line \(index + 1)")
        }
    }

    /// What the exposition was before the change (captured from the core that named the kinds).
    private static let expected = #"""
# HELP switchyard_actions_total Actions reduced, by type (types beyond the tracked limit are counted as other).
# TYPE switchyard_actions_total counter
switchyard_actions_total{bus="demo",type="a/b"} 4
switchyard_actions_total{bus="demo",type="other"} 5
# HELP switchyard_actions_rejected_total Actions the store's inbox refused.
# TYPE switchyard_actions_rejected_total counter
switchyard_actions_rejected_total 0
# HELP switchyard_inbox_depth Actions waiting in the store's inbox.
# TYPE switchyard_inbox_depth gauge
switchyard_inbox_depth 0
# HELP switchyard_inbox_capacity The store inbox's capacity.
# TYPE switchyard_inbox_capacity gauge
switchyard_inbox_capacity 16
# HELP switchyard_plugin_received_total Actions handed to a plugin's subscriptions.
# TYPE switchyard_plugin_received_total counter
switchyard_plugin_received_total{plugin="nats2",kind="nats"} 7
switchyard_plugin_received_total{plugin="gps",kind="gpsd"} 7
switchyard_plugin_received_total{plugin="fetch",kind="network-fetch"} 7
switchyard_plugin_received_total{plugin="nats1",kind="nats"} 7
switchyard_plugin_received_total{plugin="clock",kind="timer"} 7
# HELP switchyard_plugin_emitted_total Actions a plugin emitted that the bus reduced.
# TYPE switchyard_plugin_emitted_total counter
switchyard_plugin_emitted_total{plugin="nats2",kind="nats"} 5
switchyard_plugin_emitted_total{plugin="gps",kind="gpsd"} 5
switchyard_plugin_emitted_total{plugin="fetch",kind="network-fetch"} 5
switchyard_plugin_emitted_total{plugin="nats1",kind="nats"} 5
switchyard_plugin_emitted_total{plugin="clock",kind="timer"} 5
# HELP switchyard_plugin_dropped_total Actions a plugin's subscription dropped because it fell behind.
# TYPE switchyard_plugin_dropped_total counter
switchyard_plugin_dropped_total{plugin="nats2",kind="nats"} 0
switchyard_plugin_dropped_total{plugin="gps",kind="gpsd"} 0
switchyard_plugin_dropped_total{plugin="fetch",kind="network-fetch"} 0
switchyard_plugin_dropped_total{plugin="nats1",kind="nats"} 0
switchyard_plugin_dropped_total{plugin="clock",kind="timer"} 0
# HELP switchyard_plugin_restarts_total Times the bus restarted a plugin.
# TYPE switchyard_plugin_restarts_total counter
switchyard_plugin_restarts_total{plugin="nats2",kind="nats"} 1
switchyard_plugin_restarts_total{plugin="gps",kind="gpsd"} 1
switchyard_plugin_restarts_total{plugin="fetch",kind="network-fetch"} 1
switchyard_plugin_restarts_total{plugin="nats1",kind="nats"} 1
switchyard_plugin_restarts_total{plugin="clock",kind="timer"} 1
# HELP switchyard_plugin_failures_total Times a plugin's run failed.
# TYPE switchyard_plugin_failures_total counter
switchyard_plugin_failures_total{plugin="nats2",kind="nats"} 0
switchyard_plugin_failures_total{plugin="gps",kind="gpsd"} 0
switchyard_plugin_failures_total{plugin="fetch",kind="network-fetch"} 0
switchyard_plugin_failures_total{plugin="nats1",kind="nats"} 0
switchyard_plugin_failures_total{plugin="clock",kind="timer"} 0
# HELP switchyard_plugin_buffer_depth Actions waiting in a plugin's subscription buffer.
# TYPE switchyard_plugin_buffer_depth gauge
switchyard_plugin_buffer_depth{plugin="nats2",kind="nats"} 3
switchyard_plugin_buffer_depth{plugin="gps",kind="gpsd"} 3
switchyard_plugin_buffer_depth{plugin="fetch",kind="network-fetch"} 3
switchyard_plugin_buffer_depth{plugin="nats1",kind="nats"} 3
switchyard_plugin_buffer_depth{plugin="clock",kind="timer"} 3
# HELP switchyard_plugin_up 1 while a plugin runs, else 0.
# TYPE switchyard_plugin_up gauge
switchyard_plugin_up{plugin="nats2",kind="nats"} 1
switchyard_plugin_up{plugin="gps",kind="gpsd"} 1
switchyard_plugin_up{plugin="fetch",kind="network-fetch"} 1
switchyard_plugin_up{plugin="nats1",kind="nats"} 1
switchyard_plugin_up{plugin="clock",kind="timer"} 1
# HELP switchyard_plugins_abandoned_total Plugins left running because they ignored cancellation past the stop timeout.
# TYPE switchyard_plugins_abandoned_total counter
switchyard_plugins_abandoned_total 0
# HELP switchyard_fetch_results_total Results of network-fetch plugins: loaded, or failed by kind (network, timeout, http, decode).
# TYPE switchyard_fetch_results_total counter
switchyard_fetch_results_total{plugin="fetch",outcome="failed",kind="http"} 1
switchyard_fetch_results_total{plugin="fetch",outcome="failed",kind="timeout"} 2
switchyard_fetch_results_total{plugin="fetch",outcome="loaded",kind=""} 4
# HELP switchyard_gpsd_fix_mode The last fix's mode: 0 unknown, 1 no fix, 2 2D, 3 3D.
# TYPE switchyard_gpsd_fix_mode gauge
switchyard_gpsd_fix_mode{plugin="gps"} 3
# HELP switchyard_gpsd_satellites_used Satellites used in the last fix, from the last sky report.
# TYPE switchyard_gpsd_satellites_used gauge
switchyard_gpsd_satellites_used{plugin="gps"} 7
# HELP switchyard_gpsd_satellites_visible Satellites visible in the last sky report.
# TYPE switchyard_gpsd_satellites_visible gauge
switchyard_gpsd_satellites_visible{plugin="gps"} 12
# HELP switchyard_gpsd_connected 1 while the gpsd feed is connected and fresh, else 0.
# TYPE switchyard_gpsd_connected gauge
switchyard_gpsd_connected{plugin="gps"} 1
# HELP switchyard_gpsd_read_pauses_total Times a gpsd feed stopped reading because the bus was behind.
# TYPE switchyard_gpsd_read_pauses_total counter
switchyard_gpsd_read_pauses_total{plugin="gps"} 2
# HELP switchyard_gpsd_overrun_disconnects_total Connections gpsd ended while the bus was behind (the reports gpsd held are lost).
# TYPE switchyard_gpsd_overrun_disconnects_total counter
switchyard_gpsd_overrun_disconnects_total{plugin="gps"} 1
# HELP switchyard_nats_published_total Actions a NATS bridge published.
# TYPE switchyard_nats_published_total counter
switchyard_nats_published_total{plugin="nats2"} 5
switchyard_nats_published_total{plugin="nats1"} 7
# HELP switchyard_nats_received_total Actions a NATS bridge received from other buses.
# TYPE switchyard_nats_received_total counter
switchyard_nats_received_total{plugin="nats2"} 2
switchyard_nats_received_total{plugin="nats1"} 0
# HELP switchyard_nats_buffered Actions a NATS bridge holds unsent.
# TYPE switchyard_nats_buffered gauge
switchyard_nats_buffered{plugin="nats2"} 1
switchyard_nats_buffered{plugin="nats1"} 0
# HELP switchyard_nats_dropped_total Actions a NATS bridge dropped.
# TYPE switchyard_nats_dropped_total counter
switchyard_nats_dropped_total{plugin="nats2"} 0
switchyard_nats_dropped_total{plugin="nats1"} 0
# HELP switchyard_nats_origin_received_total Actions a NATS bridge reduced from each origin bus.
# TYPE switchyard_nats_origin_received_total counter
switchyard_nats_origin_received_total{plugin="nats2",origin="truck-a"} 3
switchyard_nats_origin_received_total{plugin="nats2",origin="truck-b"} 1
# HELP switchyard_nats_origin_last_seen_seconds When the last action from each origin bus was reduced (Unix time).
# TYPE switchyard_nats_origin_last_seen_seconds gauge
switchyard_nats_origin_last_seen_seconds{plugin="nats2",origin="truck-a"} 1800000000.25
switchyard_nats_origin_last_seen_seconds{plugin="nats2",origin="truck-b"} 1800000001
# HELP switchyard_nats_origin_lag_seconds From when each origin bus stamped its last action to when this bridge received it (origins that send a time).
# TYPE switchyard_nats_origin_lag_seconds gauge
switchyard_nats_origin_lag_seconds{plugin="nats2",origin="truck-a"} 0.125
# HELP switchyard_plugin_counter Counters plugins report about themselves, by name.
# TYPE switchyard_plugin_counter gauge
switchyard_plugin_counter{plugin="nats2",kind="nats",name="reconnects"} 3
switchyard_plugin_counter{plugin="gps",kind="gpsd",name="lines"} 9
switchyard_plugin_counter{plugin="clock",kind="timer",name="ticks"} 4
# HELP switchyard_process_resident_memory_bytes Resident memory of the bus process.
# TYPE switchyard_process_resident_memory_bytes gauge
switchyard_process_resident_memory_bytes 100
# HELP switchyard_process_open_fds Open file descriptors of the bus process.
# TYPE switchyard_process_open_fds gauge
switchyard_process_open_fds 4
# HELP switchyard_process_max_fds The bus process's file descriptor limit.
# TYPE switchyard_process_max_fds gauge
switchyard_process_max_fds 1024
# HELP switchyard_uptime_seconds Seconds since the bus was built.
# TYPE switchyard_uptime_seconds gauge
switchyard_uptime_seconds 2
"""#
}
