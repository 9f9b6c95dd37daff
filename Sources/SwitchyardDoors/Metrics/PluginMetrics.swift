/// The metric families one plugin kind contributes (``PluginContributions/metrics``), with
/// what the bus observed of each plugin of that kind, as one exposition shows them.
struct PluginMetrics: Sendable {
    var kind: String
    var families: [PluginMetricFamily]
    /// The plugins of the kind, in the configuration's order.
    var plugins: [PluginObservation]

    /// Each family's `# HELP` and `# TYPE`, then every plugin's samples.
    func write(into out: inout PrometheusText) {
        for family in families {
            out.family(family.name, family.type == .counter ? .counter : .gauge, family.help)
            for plugin in plugins {
                for sample in family.samples(plugin) {
                    out.sample(family.name, [("plugin", plugin.name)] + sample.labels.map { ($0.name, $0.value) }, sample.value)
                }
            }
        }
    }

    /// The families of every kind in `registry` that contributes any, with the plugins of
    /// `statistics` observed in `state` and `results`. Kinds are ordered by their first
    /// family's name, so the exposition does not depend on the order kinds were registered in.
    static func collect(registry: PluginRegistry, statistics: [PluginStatistics], state: JSON,
                        results: [BusCounters.Outcome: UInt64]) -> [PluginMetrics] {
        registry.pluginTypes.compactMap { type -> PluginMetrics? in
            let families = type.contributions.metrics
            guard !families.isEmpty else { return nil }
            let plugins = statistics.filter { $0.kind == type.kind }.map { PluginObservation($0, state: state, results: results) }
            return PluginMetrics(kind: type.kind, families: families, plugins: plugins)
        }.sorted { $0.families[0].name < $1.families[0].name }
    }
}

extension PluginObservation {
    /// What the bus observes of `plugin`: its slice of `state`, its reported counters and its
    /// own results among `results`.
    init(_ plugin: PluginStatistics, state: JSON, results: [BusCounters.Outcome: UInt64]) {
        let own = results.filter { $0.key.plugin == plugin.name }
            .map { PluginResultCount(outcome: $0.key.outcome, kind: $0.key.kind, count: $0.value) }
            .sorted { ($0.outcome, $0.kind) < ($1.outcome, $1.kind) }
        self.init(name: plugin.name, slice: state[plugin.name] ?? .null, counters: plugin.reported, results: own)
    }
}
