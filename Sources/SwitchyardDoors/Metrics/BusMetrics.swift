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
        /// Fetch results by plugin, outcome and kind (see ``BusCounters/Outcome``).
        var outcomes: [BusCounters.Outcome: UInt64] = [:]
        /// The journal's flush latencies.
        var journalSync: LatencyHistogram.Counts?
        var journalSyncBounds: [Double] = []
        /// Each gpsd plugin's slice, by plugin name.
        var gpsd: [String: JSON] = [:]
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
        fetches(snapshot, into: &out)
        gpsd(snapshot.gpsd, into: &out)
        reported(statistics.plugins, into: &out)
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

    private static func fetches(_ snapshot: Snapshot, into out: inout PrometheusText) {
        let fetchers = Set(snapshot.statistics.plugins.filter { $0.kind == "network-fetch" }.map(\.name))
        out.family("switchyard_fetch_results_total", .counter, "Results of network-fetch plugins: loaded, or failed by kind (network, timeout, http, decode).")
        for (outcome, count) in snapshot.outcomes.sorted(by: { ($0.key.plugin, $0.key.outcome, $0.key.kind) < ($1.key.plugin, $1.key.outcome, $1.key.kind) })
            where fetchers.contains(outcome.plugin) {
            out.sample("switchyard_fetch_results_total", [("plugin", outcome.plugin), ("outcome", outcome.outcome), ("kind", outcome.kind)], Double(count))
        }
    }

    private static func gpsd(_ slices: [String: JSON], into out: inout PrometheusText) {
        let sorted = slices.sorted { $0.key < $1.key }
        out.family("switchyard_gpsd_fix_mode", .gauge, "The last fix's mode: 0 unknown, 1 no fix, 2 2D, 3 3D.")
        for (name, slice) in sorted {
            out.sample("switchyard_gpsd_fix_mode", [("plugin", name)], Double(slice["fix"]?["mode"]?.intValue ?? 0))
        }
        out.family("switchyard_gpsd_satellites_used", .gauge, "Satellites used in the last fix, from the last sky report.")
        for (name, slice) in sorted {
            out.sample("switchyard_gpsd_satellites_used", [("plugin", name)], Double(slice["satellites"]?["used"]?.intValue ?? 0))
        }
        out.family("switchyard_gpsd_satellites_visible", .gauge, "Satellites visible in the last sky report.")
        for (name, slice) in sorted {
            out.sample("switchyard_gpsd_satellites_visible", [("plugin", name)], Double(slice["satellites"]?["visible"]?.intValue ?? 0))
        }
        out.family("switchyard_gpsd_connected", .gauge, "1 while the gpsd feed is connected and fresh, else 0.")
        for (name, slice) in sorted {
            out.sample("switchyard_gpsd_connected", [("plugin", name)], slice["status"]?.stringValue == "connected" ? 1 : 0)
        }
    }

    /// NATS bridges' and gpsd feeds' counters under their own names; every other reported
    /// counter as `switchyard_plugin_counter`.
    private static func reported(_ plugins: [PluginStatistics], into out: inout PrometheusText) {
        let named: [String: [(String, String, PrometheusText.Kind, String)]] = [
            "nats": [
                ("published", "switchyard_nats_published_total", .counter, "Actions a NATS bridge published."),
                ("received", "switchyard_nats_received_total", .counter, "Actions a NATS bridge received from other buses."),
                ("buffered", "switchyard_nats_buffered", .gauge, "Actions a NATS bridge holds unsent."),
                ("dropped", "switchyard_nats_dropped_total", .counter, "Actions a NATS bridge dropped."),
            ],
            "gpsd": [
                ("readPauses", "switchyard_gpsd_read_pauses_total", .counter, "Times a gpsd feed stopped reading because the bus was behind."),
                ("overrunDisconnects", "switchyard_gpsd_overrun_disconnects_total", .counter,
                 "Connections gpsd ended while the bus was behind (the reports gpsd held are lost)."),
            ],
        ]
        for kind in named.keys.sorted() {
            let owners = plugins.filter { $0.kind == kind }
            for (key, name, type, help) in named[kind] ?? [] {
                out.family(name, type, help)
                for owner in owners { out.sample(name, [("plugin", owner.name)], Double(owner.reported[key] ?? 0)) }
            }
        }
        out.family("switchyard_plugin_counter", .gauge, "Counters plugins report about themselves, by name.")
        for plugin in plugins {
            let own = Set((named[plugin.kind] ?? []).map(\.0))
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
