import Foundation
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
/// ```swift
/// var registry = PluginRegistry()
/// registry.register(Heartbeat.self)
/// let configuration = try BusConfiguration.load(contentsOf: "Config/app.json",
///     environment: ProcessInfo.processInfo.environment, registry: registry)
/// let bus = try Bus(configuration: configuration, registry: registry)
/// try await bus.run()
/// ```
public final actor Bus {
    private enum Phase: Sendable, Hashable {
        case idle
        case starting
        case running
        case stopping
        case finished
    }

    /// The configuration the bus was built from.
    public nonisolated let configuration: BusConfiguration
    nonisolated let core: BusCore
    private let runners: [PluginRunner]
    private var phase = Phase.idle
    private let readiness = CurrentValue(false)
    private let stopRequested = CurrentValue(false)

    /// Builds the bus and every plugin, validating all settings at once.
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
        let plugins = try Bus.makePlugins(configuration, registry: registry)
        let slices = zip(configuration.plugins, plugins).compactMap { declaration, plugin in
            plugin.slice.map { (name: declaration.name, slice: $0) }
        }
        let router = ActionRouter()
        let store = Store<JSON, BusAction>(
            initialState: BusStateReducer.initialState(slices),
            reducer: BusStateReducer.reducer(slices),
            middleware: [],
            options: StoreOptions(inboxCapacity: configuration.bus.inboxCapacity),
            firstSequence: 1,
            stamp: { action, sequence in
                action.id = sequence
                action.time = Date()
            },
            afterReduce: nil,
            beforeDelivery: { actions in await router.route(actions) }
        )
        store.startDrainer()
        let core = BusCore(store: store, router: router, log: log, clock: clock, busName: configuration.bus.name)
        self.configuration = configuration
        self.core = core
        self.runners = zip(configuration.plugins, plugins).map { declaration, plugin in
            PluginRunner(name: declaration.name, kind: declaration.kind, plugin: plugin,
                         policy: declaration.restart, core: core)
        }
    }

    /// Builds every plugin a configuration names, collecting the problems of all of them.
    /// - Throws: ``ConfigurationError`` listing every problem, each with its key path.
    public static func makePlugins(_ configuration: BusConfiguration, registry: PluginRegistry) throws(ConfigurationError) -> [any Plugin] {
        var plugins: [any Plugin] = []
        var problems: [ConfigurationProblem] = []
        for declaration in configuration.plugins {
            do {
                plugins.append(try registry.makePlugin(declaration))
            } catch {
                problems += registry.problems(in: declaration)
            }
        }
        guard problems.isEmpty else { throw ConfigurationError(file: configuration.file, problems: problems) }
        return plugins
    }

    // MARK: Running

    /// Starts the plugins in file order and runs until the task is cancelled or ``stop()`` is
    /// called, then stops them in reverse order and returns. Cancelling during start-up stops
    /// the plugins started so far.
    ///
    /// - Throws: ``BusError/alreadyStarted`` when called twice; ``BusError/pluginNotReady(_:timeout:)``
    ///   when a plugin with signalled readiness does not report ready in time (the plugins
    ///   started so far are stopped first).
    public func run() async throws {
        guard phase == .idle else { throw BusError.alreadyStarted }
        phase = .starting
        // Every subscription exists before the first plugin starts, so no plugin misses an
        // action another plugin emits while starting.
        let firstActions = runners.map { runner in
            runner.plugin.subscription.map { core.subscribe($0, owner: runner.name) }
        }
        var started: [PluginRunner] = []
        var startupError: BusError?
        for (runner, actions) in zip(runners, firstActions) {
            guard !shouldStop else { break }
            runner.start(actions: actions)
            started.append(runner)
            if case .signalled(let timeout) = runner.plugin.readiness {
                guard await runner.waitUntilReady(timeout: timeout) else {
                    if !shouldStop { startupError = .pluginNotReady(runner.name, timeout: timeout) }
                    break
                }
            }
        }
        if startupError == nil, !shouldStop {
            phase = .running
            await core.emit("bus/started", payload: [
                "name": .string(configuration.bus.name),
                "plugins": .array(runners.map { .string($0.name) }),
            ])
            core.log.write(.info, "ready: bus \"\(configuration.bus.name)\" with \(runners.count) plugin\(runners.count == 1 ? "" : "s")"
                + (runners.isEmpty ? "" : " (\(runners.map(\.name).joined(separator: ", ")))"))
            readiness.send(true)
            for await stop in stopRequested.subscribe() where stop { break }
        }
        await shutDown(started)
        if let startupError { throw startupError }
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

    private var shouldStop: Bool { Task.isCancelled || stopRequested.value }

    private func shutDown(_ started: [PluginRunner]) async {
        phase = .stopping
        readiness.finish()
        await core.emit("bus/stopping", payload: ["name": .string(configuration.bus.name)])
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: configuration.bus.stopTimeout)
        for runner in started.reversed() {
            let remaining = max(.zero, clock.now.duration(to: deadline))
            if await !runner.stop(timeout: remaining) {
                core.log.write(.warning, "\(runner.name): did not stop within the stop timeout; abandoned")
            }
        }
        core.router.finish()
        core.store.close()
        phase = .finished
    }

    // MARK: Observing and sending

    /// The bus state: an object with one slice per plugin that keeps one.
    public nonisolated var currentState: JSON { core.store.currentState }

    /// The bus state first, then each new state (coalesced for a slow consumer).
    public nonisolated var states: Broadcast<JSON>.Subscription { core.store.states }

    /// Reduced actions matching `pattern`, from now on. Defaults: every action, a buffer of
    /// 1024, ``OverflowPolicy/suspendProducer`` (lossless; the bus waits for this consumer).
    public nonisolated func actions(
        matching pattern: TypePattern = .all,
        bufferSize: Int = 1024,
        overflow: OverflowPolicy = .suspendProducer
    ) -> PluginActions {
        core.subscribe(ActionSubscription(pattern, bufferSize: bufferSize, overflow: overflow), owner: nil)
    }

    /// Enqueues an action without waiting; `false` when the inbox is full or the bus stopped.
    @discardableResult
    public nonisolated func send(_ action: BusAction) -> Bool {
        core.store.send(action)
    }

    /// Enqueues an action, waiting for room, and returns once it has been reduced.
    public nonisolated func dispatch(_ action: BusAction) async {
        await core.store.dispatch(action)
    }

    /// Counters of the store and of every plugin.
    public nonisolated var statistics: BusStatistics {
        BusStatistics(store: core.store.statistics, plugins: runners.map(\.statistics))
    }
}
