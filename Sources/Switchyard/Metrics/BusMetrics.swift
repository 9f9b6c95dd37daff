/// The bus's counters in the Prometheus text format, as `GET /metrics` serves them.
///
/// Every family is prefixed `switchyard_`. Label sets are bounded: action types by the bus's
/// tracked-type limit (the rest are `type="other"`), plugins by the configuration.
enum BusMetrics {
    /// Everything one exposition shows, read at one time.
    struct Snapshot: Sendable {
        var statistics: BusStatistics
        var actionsByType: [String: UInt64]
        var otherActions: UInt64
        var process: ProcessMetrics
    }

    /// The exposition of `snapshot`.
    static func exposition(of snapshot: Snapshot) -> String {
        var out = PrometheusText()
        let statistics = snapshot.statistics
        let bus = ("bus", statistics.name)
        out.family("switchyard_actions_total", .counter, "Actions reduced, by type (types beyond the tracked limit are counted as other).")
        for (type, count) in snapshot.actionsByType.sorted(by: { $0.key < $1.key }) {
            out.sample("switchyard_actions_total", [bus, ("type", type)], Double(count))
        }
        out.sample("switchyard_actions_total", [bus, ("type", "other")], Double(snapshot.otherActions))
        out.single("switchyard_actions_rejected_total", .counter, "Actions the store's inbox refused.", Double(statistics.store.rejected))
        out.single("switchyard_inbox_depth", .gauge, "Actions waiting in the store's inbox.", Double(statistics.store.queued))
        out.single("switchyard_inbox_capacity", .gauge, "The store inbox's capacity.", Double(statistics.inboxCapacity))
        plugins(statistics.plugins, into: &out)
        if let journal = statistics.journal {
            out.single("switchyard_journal_bytes", .gauge, "Bytes in the journal's segments.", Double(journal.bytes))
            out.single("switchyard_journal_segments", .gauge, "Journal segment files.", Double(journal.segments))
            out.single("switchyard_journal_last_sequence", .gauge, "The last sequence number journaled.", Double(journal.lastSequence))
        }
        if let control = statistics.control {
            out.single("switchyard_control_clients", .gauge, "Control-socket connections open.", Double(control.clients))
            out.single("switchyard_watchers", .gauge, "Control-socket watchers streaming now.", Double(control.watchers))
            out.single("switchyard_watchers_dropped_total", .counter, "Watchers dropped because they fell behind.", Double(control.watchersDropped))
        }
        if let http = statistics.http {
            out.single("switchyard_http_connections", .gauge, "HTTP connections open.", Double(http.connections))
            out.family("switchyard_http_responses_total", .counter, "HTTP responses sent, by status code.")
            for (status, count) in http.responses.sorted(by: { $0.key < $1.key }) {
                out.sample("switchyard_http_responses_total", [("code", String(status))], Double(count))
            }
            out.single("switchyard_http_streams", .gauge, "Event-stream clients connected.", Double(http.streams))
            out.single("switchyard_http_streams_dropped_total", .counter, "Event-stream clients dropped because they fell behind.", Double(http.streamsDropped))
        }
        out.single("switchyard_process_resident_memory_bytes", .gauge, "Resident memory of the bus process.", Double(snapshot.process.residentBytes))
        out.single("switchyard_process_open_fds", .gauge, "Open file descriptors of the bus process.", Double(snapshot.process.openDescriptors))
        out.single("switchyard_process_max_fds", .gauge, "The bus process's file descriptor limit.", Double(snapshot.process.maximumDescriptors))
        out.single("switchyard_uptime_seconds", .gauge, "Seconds since the bus was built.", statistics.uptime.seconds)
        return out.text
    }

    private static func plugins(_ plugins: [PluginStatistics], into out: inout PrometheusText) {
        let families: [(String, PrometheusText.Kind, String, (PluginStatistics) -> Double)] = [
            ("switchyard_plugin_emitted_total", .counter, "Actions a plugin emitted that the bus reduced.", { Double($0.emitted) }),
            ("switchyard_plugin_dropped_total", .counter, "Actions a plugin's subscription dropped because it fell behind.", { Double($0.droppedActions) }),
            ("switchyard_plugin_restarts_total", .counter, "Times the bus restarted a plugin.", { Double($0.restarts) }),
            ("switchyard_plugin_failures_total", .counter, "Times a plugin's run failed.", { Double($0.failures) }),
            ("switchyard_plugin_buffer_depth", .gauge, "Actions waiting in a plugin's subscription buffer.", { Double($0.queued) }),
        ]
        for (name, kind, help, value) in families {
            out.family(name, kind, help)
            for plugin in plugins { out.sample(name, [("plugin", plugin.name), ("kind", plugin.kind)], value(plugin)) }
        }
        out.family("switchyard_plugin_up", .gauge, "1 while a plugin runs, else 0.")
        for plugin in plugins { out.sample("switchyard_plugin_up", [("plugin", plugin.name), ("kind", plugin.kind)], plugin.status == .running ? 1 : 0) }
    }
}
