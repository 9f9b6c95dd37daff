import FoundationEssentials
import SwitchyardBus

extension NATSPlugin {
    /// The bridge's traffic on `/metrics`: what it published, received, holds and dropped; and,
    /// per origin bus heard (at most ``RelayOrigins/originLimit``), the actions received from
    /// it, when the last one was, and its transport lag (origins that send `Switchyard-Time`).
    public static var contributions: PluginContributions {
        PluginContributions(metrics: [
            .reported("published", as: "switchyard_nats_published_total", .counter, help: "Actions a NATS bridge published."),
            .reported("received", as: "switchyard_nats_received_total", .counter, help: "Actions a NATS bridge received from other buses."),
            .reported("buffered", as: "switchyard_nats_buffered", .gauge, help: "Actions a NATS bridge holds unsent."),
            .reported("dropped", as: "switchyard_nats_dropped_total", .counter, help: "Actions a NATS bridge dropped."),
            origins("switchyard_nats_origin_received_total", .counter, help: "Actions a NATS bridge reduced from each origin bus.") { origin in
                origin["received"]?.doubleValue
            },
            origins("switchyard_nats_origin_last_seen_seconds", .gauge, help: "When the last action from each origin bus was reduced (Unix time).") { origin in
                origin["lastSeen"]?.stringValue.flatMap(Timestamp.parseISO8601)?.timeIntervalSince1970
            },
            origins("switchyard_nats_origin_lag_seconds", .gauge,
                    help: "From when each origin bus stamped its last action to when this bridge received it (origins that send a time).") { origin in
                origin["lag"]?.doubleValue
            },
        ])
    }

    /// A family with a sample per origin in the plugin's `origins`, labelled `origin`.
    private static func origins(_ name: String, _ type: PluginMetricFamily.MetricType, help: String,
                                value: @escaping @Sendable (JSON) -> Double?) -> PluginMetricFamily {
        PluginMetricFamily(name: name, type: type, help: help) { plugin in
            (plugin.slice[RelayOrigins.member]?.objectValue ?? [:]).sorted { $0.key < $1.key }.compactMap { origin, entry in
                value(entry).map { PluginMetricSample($0, labels: [.init("origin", origin)]) }
            }
        }
    }
}
