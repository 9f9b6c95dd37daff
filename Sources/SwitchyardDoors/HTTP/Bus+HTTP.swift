import FoundationEssentials

extension Bus {
    /// Whether the bus is ready, as `/readyz` reports it: it has started (and is not stopping),
    /// every plugin runs (none pending, restarting after a failure, or given up on), and no
    /// gpsd feed is stale or disconnected.
    nonisolated func readinessReport() -> (ready: Bool, problems: [String]) {
        var problems: [String] = []
        if !readiness.value || stopRequested.value { problems.append("the bus is not running (starting or stopping)") }
        for plugin in runners.map(\.statistics) {
            switch plugin.status {
            case .running, .stopped: break
            case .pending: problems.append("plugin \(plugin.name) has not started")
            case .restarting: problems.append("plugin \(plugin.name) is restarting after \(plugin.failures) failure(s): \(plugin.lastError ?? "no error text")")
            case .failed: problems.append("plugin \(plugin.name) failed and was given up on: \(plugin.lastError ?? "no error text")")
            }
        }
        let state = core.store.currentState
        for declaration in configuration.plugins where declaration.kind == "gpsd" {
            if let status = state.value(atPath: declaration.name + ".status")?.stringValue, ["stale", "disconnected", "connecting"].contains(status) {
                problems.append("gpsd plugin \(declaration.name) is \(status)")
            }
        }
        return (problems.isEmpty, problems)
    }

    /// The counters `/metrics` shows, read now.
    nonisolated func metricsSnapshot() -> BusMetrics.Snapshot {
        let (types, other) = core.counters.byType()
        let state = core.store.currentState
        var gpsd: [String: JSON] = [:]
        for declaration in configuration.plugins where declaration.kind == "gpsd" {
            gpsd[declaration.name] = state[declaration.name] ?? .null
        }
        let statistics = self.statistics
        return BusMetrics.Snapshot(statistics: statistics, actionsByType: types, otherActions: other,
                                   process: .current(), outcomes: core.counters.outcomes(),
                                   journalSync: statistics.journal == nil ? nil : LatencyHistogram.journalSync.snapshot,
                                   journalSyncBounds: LatencyHistogram.journalSync.bounds, gpsd: gpsd)
    }
}
