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
        /// The journal's flush latencies.
        var journalSync: LatencyHistogram.Counts?
        var journalSyncBounds: [Double] = []
        /// The families plugin kinds contribute, with the plugins of each kind.
        var contributed: [PluginMetrics] = []
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
        out.single("switchyard_plugins_abandoned_total", .counter, "Plugins left running because they ignored cancellation past the stop timeout.", Double(statistics.abandonedPlugins))
        if let journal = statistics.journal {
            out.single("switchyard_journal_bytes", .gauge, "Bytes in the journal's segments.", Double(journal.bytes))
            out.single("switchyard_journal_segments", .gauge, "Journal segment files.", Double(journal.segments))
            out.single("switchyard_journal_last_sequence", .gauge, "The last sequence number journaled.", Double(journal.lastSequence))
            out.single("switchyard_journal_older_damage", .gauge, "1 when the segments or snapshots behind the restored snapshot are damaged.",
                       journal.olderDamage == nil ? 0 : 1)
            if let sync = snapshot.journalSync {
                histogram("switchyard_journal_fsync_seconds", "How long the journal's flushes to disk (fdatasync) take.",
                          bounds: snapshot.journalSyncBounds, counts: sync, into: &out)
            }
        }
        if let control = statistics.control {
            out.single("switchyard_control_clients", .gauge, "Control-socket connections open.", Double(control.clients))
            out.single("switchyard_watchers", .gauge, "Control-socket watchers streaming now.", Double(control.watchers))
            out.single("switchyard_control_watchers_dropped_total", .counter, "Watchers dropped because they fell behind.", Double(control.watchersDropped))
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
        for kind in snapshot.contributed { kind.write(into: &out) }
        reported(statistics.plugins, shownBy: snapshot.contributed, into: &out)
        out.single("switchyard_process_resident_memory_bytes", .gauge, "Resident memory of the bus process.", Double(snapshot.process.residentBytes))
        out.single("switchyard_process_open_fds", .gauge, "Open file descriptors of the bus process.", Double(snapshot.process.openDescriptors))
        out.single("switchyard_process_max_fds", .gauge, "The bus process's file descriptor limit.", Double(snapshot.process.maximumDescriptors))
        out.single("switchyard_uptime_seconds", .gauge, "Seconds since the bus was built.", statistics.uptime.seconds)
        return out.text
    }

    private static func histogram(_ name: String, _ help: String, bounds: [Double], counts: LatencyHistogram.Counts, into out: inout PrometheusText) {
        out.family(name, .histogram, help)
        var cumulative: UInt64 = 0
        for (bound, count) in zip(bounds, counts.buckets) {
            cumulative += count
            out.sample(name + "_bucket", [("le", PrometheusText.format(bound))], Double(cumulative))
        }
        out.sample(name + "_bucket", [("le", "+Inf")], Double(counts.count))
        out.sample(name + "_sum", [], counts.sum)
        out.sample(name + "_count", [], Double(counts.count))
    }

    /// Every reported counter no contributed family shows, as `switchyard_plugin_counter`.
    private static func reported(_ plugins: [PluginStatistics], shownBy contributed: [PluginMetrics], into out: inout PrometheusText) {
        var shown: [String: Set<String>] = [:]
        for kind in contributed { shown[kind.kind, default: []].formUnion(kind.families.flatMap(\.counters)) }
        out.family("switchyard_plugin_counter", .gauge, "Counters plugins report about themselves, by name.")
        for plugin in plugins {
            let own = shown[plugin.kind] ?? []
            for (key, value) in plugin.reported.sorted(by: { $0.key < $1.key }) where !own.contains(key) {
                out.sample("switchyard_plugin_counter", [("plugin", plugin.name), ("kind", plugin.kind), ("name", key)], Double(value))
            }
        }
    }

    private static func plugins(_ plugins: [PluginStatistics], into out: inout PrometheusText) {
        let families: [(String, PrometheusText.Kind, String, (PluginStatistics) -> Double)] = [
            ("switchyard_plugin_received_total", .counter, "Actions handed to a plugin's subscriptions.", { Double($0.received) }),
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
