extension Bus {
    /// Builds a bus that only reduces: it keeps its data directory as
    /// ``init(configuration:registry:services:serving:clock:log:)`` does (and runs the same
    /// services), but builds no plugin — only
    /// each plugin's slice (``PluginRegistry/makeSlice(_:)``) — so a configuration read with
    /// ``BusConfiguration/loadForSlices(contentsOf:environment:registry:)`` serves, unset
    /// variables and all. For `replay --effects off`: recorded actions are reduced and journaled
    /// through ``dispatchRecorded(_:)``, and no plugin ever runs (``run()`` would start none).
    ///
    /// - Throws: ``ConfigurationError`` with every problem making a slice; ``JournalError`` as
    ///   ``init(configuration:registry:services:serving:clock:log:)`` does.
    public init(reducingOnly configuration: BusConfiguration, registry: PluginRegistry, services: BusServices,
                serving: [any BusService] = [], log: LogSink = LogSink()) throws {
        log.hide(configuration.secrets)
        let made = try Bus.makeEach(configuration, registry.makeSlice, problems: registry.sliceProblems(in:))
        let slices = SliceTable(Bus.slices(of: configuration.plugins, made, secrets: configuration.secrets))
        let opened = try OpenDataDirectory.open(settings: configuration.bus, services: services, slices: slices.current,
                                                reducer: BusStateModel.reducer(slices), log: log)
        // No plugin is built, so none is listed: statistics and status show what runs.
        var reducing = configuration
        reducing.plugins = []
        self.init(configuration: reducing, registry: registry, plugins: [], slices: slices,
                  initialState: opened.state, firstSequence: opened.firstSequence,
                  directory: opened.directory, serving: serving, clock: ContinuousClock(), log: log)
    }
}
