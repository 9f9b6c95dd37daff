extension PluginRegistry {
    /// The position source of every kind that has one (``PluginContributions/position``),
    /// ordered by action and then kind.
    public var positionSources: [(kind: String, source: PositionSource)] {
        pluginTypes.compactMap { type in type.contributions.position.map { (type.kind, $0) } }
            .sorted { ($0.source.action, $0.kind) < ($1.source.action, $1.kind) }
    }

    /// Runs every kind's exit hook (``PluginContributions/exitHook``), in kind order, for a
    /// process about to exit at once.
    /// - Returns: The notes the hooks returned, for the exit's log line.
    @discardableResult
    public func runExitHooks() -> [String] {
        pluginTypes.compactMap { $0.contributions.exitHook?() }
    }
}
