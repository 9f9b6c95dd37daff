import FoundationEssentials
import Synchronization
import SwitchyardStreams

/// The bus: a store of JSON slices with dynamic actions, and the plugins a configuration names,
/// each supervised in a task of its own.
///
/// Construct it from a configuration (every plugin's settings are validated then, before
/// anything starts), then call ``run()``: it starts the plugins in file order, emits
/// `bus/started`, and runs until its task is cancelled or ``stop()`` is called; then it emits
/// `bus/stopping`, stops the plugins in reverse order within the configured stop timeout, and
/// returns.
///
/// Built with ``init(configuration:registry:services:serving:clock:log:)``, the bus also keeps
/// its data directory: it journals every reduced action (restoring its state from the journal
/// when built) and runs the ``BusService``s it is given — the doors of `SwitchyardDoors`
/// (the control socket, HTTP) — while it runs.
///
/// ```swift
/// var registry = PluginRegistry()
/// registry.register(Heartbeat.self)
/// let configuration = try BusConfiguration.load(contentsOf: "Config/app.json",
///     environment: ProcessInfo.processInfo.environment, registry: registry)
/// let bus = try Bus(configuration: configuration, registry: registry, services: BusServices(), serving: .doors())
/// try await bus.run()
/// ```
public final actor Bus {
    enum Phase: Sendable, Hashable {
        case idle
        case starting
        case running
        case stopping
        case finished
    }

    /// What may change while the bus runs, readable from any task.
    struct Live: Sendable {
        var configuration: BusConfiguration
        var runners: [PluginRunner]
    }

    package nonisolated let core: PluginHost
    nonisolated let live: Mutex<Live>
    nonisolated let directory: OpenDataDirectory?
    /// What the bus runs beside its plugins (its doors), in start order.
    nonisolated let serving: [any BusService]
    /// The services started so far, and where each can be reached (for the ready line).
    var started: [(service: any BusService, reachedAt: String?)] = []
    package nonisolated let registry: PluginRegistry
    nonisolated let rate = ActionRateMeter()
    nonisolated let startedAt = ContinuousClock.now
    var phase = Phase.idle
    package nonisolated let readiness = CurrentValue(false)
    package nonisolated let stopRequested: CurrentValue<Bool>
    /// The plugin runners started so far, as children of the task group ``run()`` owns.
    nonisolated let children = RunnerGroup()
    /// `true` while a reload changes the plugins; shutting down waits for it.
    let reloading = CurrentValue(false)

    /// Builds a bus that keeps nothing on disk and serves no socket, validating every
    /// plugin's settings at once.
    ///
    /// - Parameters:
    ///   - configuration: The plugin set.
    ///   - registry: The plugin kinds that may be named.
    ///   - clock: The clock plugins and restart backoff run on. Default: `ContinuousClock()`.
    ///   - log: Where log lines go. Default: stderr.
    /// - Throws: ``ConfigurationError`` with every problem of every plugin's settings.
    public init(
        configuration: BusConfiguration,
        registry: PluginRegistry,
        clock: any Clock<Duration> = ContinuousClock(),
        log: LogSink = LogSink()
    ) throws(ConfigurationError) {
        // Hidden before the plugins are made, so nothing a plugin logs while reading its
        // settings shows a secret (hiding again in the initializer below merges nothing new).
        log.hide(configuration.secrets)
        self.init(configuration: configuration, registry: registry,
                  plugins: try Bus.makePlugins(configuration, registry: registry), clock: clock, log: log)
    }

    /// Builds a bus around plugins already made, one per declaration of `configuration` in
    /// order (for a test kit that hands in instances with dependencies a config cannot name);
    /// keeps nothing on disk and serves no socket.
    /// - Precondition: `plugins` has one plugin per declaration.
    package init(
        configuration: BusConfiguration,
        registry: PluginRegistry,
        plugins: [any Plugin],
        clock: any Clock<Duration>,
        log: LogSink
    ) {
        precondition(plugins.count == configuration.plugins.count, "one plugin per declaration")
        log.hide(configuration.secrets)
        let slices = SliceTable(Bus.slices(of: configuration.plugins, plugins, secrets: configuration.secrets))
        self.init(configuration: configuration, registry: registry, plugins: plugins, slices: slices,
                  initialState: BusStateModel.initialState(slices.current), firstSequence: 1,
                  directory: nil, serving: [], clock: clock, log: log)
    }

    /// Builds a bus that keeps its data directory (`configuration.bus.dataDirectory`): it takes
    /// the directory's lock, restores the state from the journal (the latest snapshot, then the
    /// later actions through the reducers only: no plugin sees them, so no side effect
    /// repeats), and continues the journal's sequence numbers.
    ///
    /// - Parameters:
    ///   - configuration: The plugin set.
    ///   - registry: The plugin kinds that may be named.
    ///   - services: What to keep in the data directory; `BusServices()` is the journal.
    ///   - serving: The services the bus runs while it runs, started in this order before the
    ///     first plugin and stopped in reverse after the last (`.doors()` of `SwitchyardDoors`:
    ///     the control socket and HTTP). Default: none.
    ///   - clock: The clock plugins, restart backoff and journal flushes run on. Default:
    ///     `ContinuousClock()`.
    ///   - log: Where log lines go. Default: stderr.
    /// - Throws: ``ConfigurationError`` with every problem of every plugin's settings;
    ///   ``JournalError`` when another bus holds the data directory, it cannot be created, or
    ///   the journal is corrupt (the error names the file, line and byte offset).
    public init(
        configuration: BusConfiguration,
        registry: PluginRegistry,
        services: BusServices,
        serving: [any BusService] = [],
        clock: any Clock<Duration> = ContinuousClock(),
        log: LogSink = LogSink()
    ) throws {
        log.hide(configuration.secrets)
        let plugins = try Bus.makePlugins(configuration, registry: registry)
        let slices = SliceTable(Bus.slices(of: configuration.plugins, plugins, secrets: configuration.secrets))
        let opened = try OpenDataDirectory.open(settings: configuration.bus, services: services, slices: slices.current,
                                                reducer: BusStateModel.reducer(slices), log: log)
        self.init(configuration: configuration, registry: registry, plugins: plugins, slices: slices,
                  initialState: opened.state, firstSequence: opened.firstSequence,
                  directory: opened.directory, serving: serving, clock: clock, log: log)
    }

    init(
        configuration: BusConfiguration,
        registry: PluginRegistry,
        plugins: [any Plugin],
        slices: SliceTable,
        initialState: JSON,
        firstSequence: UInt64,
        directory: OpenDataDirectory?,
        serving: [any BusService],
        clock: any Clock<Duration>,
        log: LogSink
    ) {
        let router = ActionRouter()
        let counters = BusCounters()
        let stopRequested = CurrentValue(false)
        let journal = directory?.journal
        // A journal that cannot write stops the bus rather than run without durability; the
        // failed batch is neither acknowledged nor published.
        journal?.onFailure { stopRequested.send(true) }
        let store = Store<JSON, BusAction>(
            initialState: initialState,
            reducer: BusStateModel.reducer(slices),
            middleware: [],
            options: StoreOptions(inboxCapacity: configuration.bus.inboxCapacity),
            firstSequence: firstSequence
        )
        // With a journal the store reduces on the journal writer's thread (see
        // ``Journal/reducingExecutor``): a dispatch then crosses two threads, not three.
        store.startDrainer(into: BusBatchSink(journal: journal, router: router, counters: counters),
                           preferring: journal?.reducingExecutor)
        let core = PluginHost(store: store, router: router, log: log, clock: clock, busName: configuration.bus.name,
                           slices: slices, counters: counters,
                           journal: directory.flatMap { directory in
                               directory.journal.map { PluginJournal(dataDirectory: directory.dataDirectory, restoredThrough: firstSequence - 1, appends: $0.appends) }
                           })
        self.core = core
        self.registry = registry
        self.directory = directory
        self.serving = serving
        self.stopRequested = stopRequested
        self.live = Mutex(Live(
            configuration: configuration,
            runners: zip(configuration.plugins, plugins).map { declaration, plugin in
                PluginRunner(name: declaration.name, kind: declaration.kind, plugin: plugin,
                             policy: declaration.restart, core: core)
            }
        ))
    }

    /// Builds every plugin a configuration names, collecting the problems of all of them.
    /// - Throws: ``ConfigurationError`` listing every problem, each with its key path.
    public static func makePlugins(_ configuration: BusConfiguration, registry: PluginRegistry) throws(ConfigurationError) -> [any Plugin] {
        try makeEach(configuration, registry.makePlugin, problems: registry.problems(in:))
    }

    /// What `make` builds for each declaration of `configuration`, in order.
    /// - Throws: ``ConfigurationError`` listing the `problems` of every declaration `make` failed for.
    static func makeEach<Made>(
        _ configuration: BusConfiguration,
        _ make: (PluginDeclaration) throws -> Made,
        problems problemsIn: (PluginDeclaration) -> [ConfigurationProblem]
    ) throws(ConfigurationError) -> [Made] {
        var made: [Made] = []
        var problems: [ConfigurationProblem] = []
        for declaration in configuration.plugins {
            do {
                made.append(try make(declaration))
            } catch {
                problems += problemsIn(declaration)
            }
        }
        guard problems.isEmpty else {
            throw ConfigurationError(file: configuration.file, problems: problems.map { $0.redacted(configuration.secrets) })
        }
        return made
    }

    /// The state slices of the plugins that keep one, their initial values cleaned of
    /// `secrets`.
    static func slices(of declarations: [PluginDeclaration], _ plugins: [any Plugin], secrets: Secrets) -> [SliceTable.Entry] {
        slices(of: declarations, plugins.map(\.slice), secrets: secrets)
    }

    /// The slices of the declarations that have one (`slices` holds one per declaration), their
    /// initial values cleaned of `secrets`.
    static func slices(of declarations: [PluginDeclaration], _ slices: [StateSlice?], secrets: Secrets) -> [SliceTable.Entry] {
        zip(declarations, slices).compactMap { declaration, slice in
            slice.map { slice in
                var slice = slice
                slice.initial = secrets.redact(slice.initial)
                return (name: declaration.name, slice: slice)
            }
        }
    }

    /// The configuration the bus runs now: the one it was built from, or the last one a
    /// ``reload(_:)`` applied.
    public nonisolated var configuration: BusConfiguration {
        live.withLock { $0.configuration }
    }

    package nonisolated var runners: [PluginRunner] { live.withLock { $0.runners } }

    // MARK: Running

    /// Starts the plugins in file order and runs until the task is cancelled or ``stop()`` is
    /// called, then stops them in reverse order and returns. Cancelling during start-up stops
    /// the plugins started so far. A bus with a data directory starts its services (its doors)
    /// before the first plugin starts, and closes its journal and stops them after the last one
    /// stopped.
    ///
    /// - Throws: ``BusError/alreadyStarted`` when called twice; ``BusError/pluginNotReady(_:timeout:)``
    ///   when a plugin with signalled readiness does not report ready in time (the plugins
    ///   started so far are stopped first); what a service's ``BusService/start(on:)`` throws, such
    ///   as ``BusError/controlSocket(_:reason:)`` when the control socket cannot be opened (no
    ///   plugin was started); ``BusError/journalFailed(_:)`` when the
    ///   journal could not write (the bus stopped at once; no action after the failure was
    ///   acknowledged).
    public func run() async throws {
        guard phase == .idle else { throw BusError.alreadyStarted }
        phase = .starting
        do {
            try startServices()
        } catch {
            phase = .finished
            readiness.finish()
            core.store.close()
            await stopServices(grace: .zero)
            throw error
        }
        // The group runs in a task `run` waits for to the end, so that cancelling `run` stops
        // the plugins one by one in reverse order, each with its grace, as `stop()` does,
        // instead of cancelling every child at once.
        let group = Task { try await self.superviseGroup() }
        try await withTaskCancellationHandler {
            try await group.value
        } onCancel: { [stopRequested] in
            stopRequested.send(true)
        }
    }

    /// Asks a running bus to stop, as cancelling its task does; safe to call from any task,
    /// also before the bus has finished starting.
    public nonisolated func stop() {
        stopRequested.send(true)
    }

    /// Returns once every plugin has started and `bus/started` was reduced, or as soon as the
    /// bus is stopping or stopped without having become ready. Returns whether it became ready.
    @discardableResult
    public nonisolated func waitUntilReady() async -> Bool {
        for await ready in readiness.subscribe() where ready { return true }
        return readiness.value
    }
}
