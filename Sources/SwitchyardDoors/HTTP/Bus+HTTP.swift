import FoundationEssentials

extension Bus {
    /// Whether the bus is ready, as `/readyz` reports it: it has started (and is not stopping),
    /// every plugin runs (none pending, restarting after a failure, or given up on), and no
    /// plugin's kind sees a problem with it (``PluginContributions/readiness``).
    nonisolated func readinessReport() -> (ready: Bool, problems: [String]) {
        var problems: [String] = []
        if !readiness.value || stopRequested.value { problems.append("the bus is not running (starting or stopping)") }
        let statistics = runners.map(\.statistics)
        for plugin in statistics {
            switch plugin.status {
            case .running, .stopped: break
            case .pending: problems.append("plugin \(plugin.name) has not started")
            case .restarting: problems.append("plugin \(plugin.name) is restarting after \(plugin.failures) failure(s): \(plugin.lastError ?? "no error text")")
            case .failed: problems.append("plugin \(plugin.name) failed and was given up on: \(plugin.lastError ?? "no error text")")
            }
        }
        let (state, results) = (core.store.currentState, core.counters.outcomes())
        for plugin in statistics {
            guard let condition = registry.type(forKind: plugin.kind)?.contributions.readiness else { continue }
            problems += condition(PluginObservation(plugin, state: state, results: results))
        }
        return (problems.isEmpty, problems)
    }

    /// The counters `/metrics` shows, read now.
    nonisolated func metricsSnapshot() -> BusMetrics.Snapshot {
        let (types, other) = core.counters.byType()
        let statistics = self.statistics
        let contributed = PluginMetrics.collect(registry: registry, statistics: statistics.plugins, state: core.store.currentState,
                                                results: core.counters.outcomes())
        return BusMetrics.Snapshot(statistics: statistics, actionsByType: types, otherActions: other, process: .current(),
                                   journalSync: statistics.journal == nil ? nil : LatencyHistogram.journalSync.snapshot,
                                   journalSyncBounds: LatencyHistogram.journalSync.bounds, contributed: contributed)
    }
}
