extension Bus {
    /// Swaps in a new configuration while the bus runs.
    ///
    /// Every plugin of `configuration` is built first, so an invalid configuration throws
    /// before anything changes. Then, by plugin name: removed plugins stop (in reverse of the
    /// order they started), plugins whose kind, settings or restart policy changed stop, `bus/reloaded`
    /// is dispatched (its payload lists what changed; reducing it drops the slices of removed
    /// plugins and of plugins whose kind changed), and added and changed plugins start in file
    /// order. Added and changed plugins subscribe before `bus/reloaded` is dispatched, so they
    /// receive it. Plugins that did not change keep running untouched.
    ///
    /// Of the bus settings, `stopTimeout` and `journal` take effect; `name`, `dataDirectory` and
    /// `inboxCapacity` cannot change while the bus runs and are kept (the report says so).
    ///
    /// - Throws: ``ConfigurationError`` when a plugin cannot be built from `configuration`;
    ///   ``BusError/notRunning`` before the bus is running or once it stops;
    ///   ``BusError/reloadInProgress`` while another reload runs.
    @discardableResult
    public func reload(_ configuration: BusConfiguration) async throws -> ReloadReport {
        guard phase == .running else { throw BusError.notRunning }
        guard !reloading.value else { throw BusError.reloadInProgress }
        core.log.hide(configuration.secrets)
        let plugins = try Bus.makePlugins(configuration, registry: registry)
        reloading.send(true)
        defer { reloading.send(false) }

        let (old, oldRunners) = live.withLock { ($0.configuration, $0.runners) }
        let plan = ReloadPlan(from: old.plugins, to: configuration.plugins)
        let byName = Dictionary(oldRunners.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let stopping = Set(plan.removed + plan.restarted)
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: old.bus.stopTimeout)
        let stopped = children.started.filter { stopping.contains($0.name) }
        for runner in stopped.reversed() {
            await runner.stop(timeout: max(.zero, clock.now.duration(to: deadline)))
        }
        children.forget(stopped)
        // A stopped plugin's counter provider would otherwise outlive it (and keep what it
        // captured); a restarted one registers again when it starts.
        for name in stopping { core.reporters.remove(name) }

        let keep = Set(plan.unchanged)
        var runners: [PluginRunner] = []
        var slices: [SliceTable.Entry] = []
        var starting: [PluginRunner] = []
        for (declaration, plugin) in zip(configuration.plugins, plugins) {
            if keep.contains(declaration.name), let running = byName[declaration.name] {
                runners.append(running)
                if let slice = running.plugin.slice { slices.append((declaration.name, slice)) }
            } else {
                let runner = PluginRunner(name: declaration.name, kind: declaration.kind, plugin: plugin,
                                          policy: declaration.restart, core: core)
                runners.append(runner)
                starting.append(runner)
                if var slice = plugin.slice {
                    slice.initial = configuration.secrets.redact(slice.initial)
                    slices.append((declaration.name, slice))
                }
            }
        }
        var settings = configuration.bus
        var kept: [String] = []
        /// Keeps the running value of a setting read only at start, and says so in `note`
        /// when the new configuration changes it.
        func keepRunning<Value: Equatable>(_ setting: WritableKeyPath<BusSettings, Value>, _ note: String) {
            guard settings[keyPath: setting] != old.bus[keyPath: setting] else { return }
            kept.append(note)
            settings[keyPath: setting] = old.bus[keyPath: setting]
        }
        keepRunning(\.name, "bus.name \(JSON.string(old.bus.name)) (plugins were given the name when the bus started)")
        keepRunning(\.dataDirectory, "bus.dataDirectory \(JSON.string(old.bus.dataDirectory)) (the journal and control socket cannot move while the bus runs)")
        keepRunning(\.logLevel, "bus.logLevel \(JSON.string(old.bus.logLevel.rawValue)) (the log is set up when the bus starts)")
        keepRunning(\.control, "bus.control (the control server reads it when the bus starts)")
        keepRunning(\.inboxCapacity, "bus.inboxCapacity \(old.bus.inboxCapacity) (the inbox is sized when the bus starts)")
        var applied: [String] = []
        if settings.stopTimeout != old.bus.stopTimeout { applied.append("bus.stopTimeout") }
        if settings.journal != old.bus.journal {
            applied.append("bus.journal")
            directory?.journal?.writer.update(settings.journal)
        }
        var applying = configuration
        applying.bus = settings

        core.slices.replace(with: slices)
        live.withLock { $0 = Live(configuration: applying, runners: runners) }
        // Subscriptions first, as at start-up, so an added or restarted plugin misses nothing
        // another emits while it starts — `bus/reloaded` included (a logger restarted by the
        // reload records the reload that restarted it).
        let firstActions = starting.map { runner in runner.plugin.subscription.map { core.subscribe($0, owner: runner.name) } }
        await core.emit(BusStateModel.reloadedType, payload: plan.payload)
        directory?.recordSlices(slices.map(\.name), log: core.log)
        for (runner, actions) in zip(starting, firstActions) {
            runner.start(in: children, actions: actions)
            if case .signalled(let timeout) = runner.plugin.readiness, await !runner.waitUntilReady(timeout: timeout) {
                core.log.write(.warning, "did not report ready within \(timeout) after the reload", plugin: runner.name)
            }
        }
        let report = ReloadReport(added: plan.added, removed: plan.removed, restarted: plan.restarted,
                                  unchanged: plan.unchanged, appliedSettings: applied, keptSettings: kept)
        core.log.write(.info, "reloaded \(configuration.file.isEmpty ? "the configuration" : configuration.file): \(report)")
        return report
    }
}
