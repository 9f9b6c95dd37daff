import Synchronization

/// Counters plugins report about themselves, read when `stats` or `/metrics` asks: each
/// plugin registers one closure, so reporting costs the plugin nothing between reads.
final class PluginReporters: Sendable {
    private let providers = Mutex<[String: @Sendable () -> [String: Int64]]>([:])

    /// Sets (or replaces) what `plugin` reports.
    func set(_ plugin: String, _ provider: @escaping @Sendable () -> [String: Int64]) {
        providers.withLock { $0[plugin] = provider }
    }

    /// Stops reporting for `plugin`.
    func remove(_ plugin: String) {
        _ = providers.withLock { $0.removeValue(forKey: plugin) }
    }

    /// What `plugin` reports now; empty when it reports nothing.
    func values(of plugin: String) -> [String: Int64] {
        guard let provider = providers.withLock({ $0[plugin] }) else { return [:] }
        return provider()
    }
}

extension PluginContext {
    /// Reports counters of the plugin's own (`published`, `buffered`, …) to `switchyard stats`
    /// (as the plugin's `counters`) and `/metrics` (as `switchyard_plugin_counter`): the bus
    /// calls `provider` each time it is asked, from any task, so it must be cheap and
    /// thread-safe. A later call replaces the provider. Values are whole numbers.
    public func reportCounters(_ provider: @escaping @Sendable () -> [String: Int64]) {
        core.reporters.set(name, provider)
    }
}
