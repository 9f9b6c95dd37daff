import SwitchyardBus
import Synchronization
import Testing

/// A bus for testing plugins: built from a config text or from plugin instances, on a
/// ``ManualClock`` by default, recording every reduced action and every log line.
///
/// ``start()`` runs the bus in a task of its own; ``send(_:_:source:)`` and
/// ``dispatch(_:_:source:)`` put actions on it as another plugin would; ``receive(_:where:timeout:sourceLocation:)``
/// waits for the next action of a type pattern; ``actions``, ``state`` and ``logLines`` show
/// what happened; ``stop()`` stops the plugins in reverse order (cancelling their tasks) and
/// rethrows whatever ended ``Bus/run()``. Releasing a started test bus without stopping it
/// cancels its task.
///
/// Every wait has a bound of real time, `timeout` (default 30 s, multiplied by the environment
/// variable `SWITCHYARD_TEST_TIMEOUT_SCALE` when it holds a positive number): a deadline for a
/// busy machine, never a speed. A wait that reaches it records a Swift Testing issue at the
/// caller's line, naming what was awaited and the action types recorded, and returns `nil` or
/// `false`.
///
/// ```swift
/// let bus = try TestBus(configuration: #"{"plugins": [{"name": "tick", "kind": "timer", "interval": 60}]}"#,
///                       registry: registry)
/// await bus.start()
/// await bus.advance(by: .seconds(60))
/// let tick = await bus.receive("tick/tick")
/// #expect(tick?.payload == ["tick": 1])
/// try await bus.stop()
/// ```
public final class TestBus: Sendable {
    /// The bus under test: a real ``Bus`` with its store, router and plugin supervision.
    public let bus: Bus
    /// The clock the plugins run on; a ``ManualClock`` unless the test chose another.
    public let clock: any Clock<Duration>
    /// The real-time bound of every wait, before scaling.
    public let timeout: Duration
    let recording: TestBusRecording
    private let running = Mutex<Task<Void, any Error>?>(nil)
    private let recorder = Mutex<Task<Void, Never>?>(nil)

    /// Builds a test bus from a config text (`{"plugins": […]}`, as in a config file),
    /// validating every plugin's settings against `registry`.
    ///
    /// - Parameters:
    ///   - configuration: The config text; `${VAR}` references come from `environment`.
    ///   - registry: The plugin kinds the text may name.
    ///   - environment: The variables `${VAR}` expands from. Default: none.
    ///   - clock: The bus clock. Default: a new ``ManualClock``.
    ///   - logLevel: The lowest level of log line recorded. Default: `.debug`.
    ///   - timeout: The real-time bound of every wait. Default: 30 s.
    /// - Throws: ``ConfigurationError`` with every problem in the text.
    public convenience init(
        configuration: String,
        registry: PluginRegistry,
        environment: [String: String] = [:],
        clock: any Clock<Duration> = ManualClock(),
        logLevel: LogSink.Level = .debug,
        timeout: Duration = .seconds(30)
    ) throws {
        let parsed = try BusConfiguration.parse(configuration, file: "test-bus.json", environment: environment, registry: registry)
        try self.init(configuration: parsed, registry: registry, clock: clock, logLevel: logLevel, timeout: timeout)
    }

    /// Builds a test bus from a parsed configuration, building its plugins from `registry`.
    /// - Throws: ``ConfigurationError`` with every problem of every plugin's settings.
    public init(
        configuration: BusConfiguration,
        registry: PluginRegistry,
        clock: any Clock<Duration> = ManualClock(),
        logLevel: LogSink.Level = .debug,
        timeout: Duration = .seconds(30)
    ) throws {
        let recording = TestBusRecording()
        self.recording = recording
        self.clock = clock
        self.timeout = timeout
        bus = try Bus(configuration: configuration, registry: registry, clock: clock,
                      log: LogSink(minimumLevel: logLevel) { recording.log($0) })
        startRecording()
    }

    /// Builds a test bus around plugin instances, in start order, each named by its key: for
    /// plugins that take dependencies a config file cannot name (a transport, a fake device).
    /// Each gets the default restart policy; `settings` are the bus's own (name, stop timeout).
    public init(
        plugins: KeyValuePairs<String, any Plugin>,
        settings: BusSettings = BusSettings(),
        clock: any Clock<Duration> = ManualClock(),
        logLevel: LogSink.Level = .debug,
        timeout: Duration = .seconds(30)
    ) {
        let recording = TestBusRecording()
        self.recording = recording
        self.clock = clock
        self.timeout = timeout
        var registry = PluginRegistry()
        var declarations: [PluginDeclaration] = []
        for (index, (name, plugin)) in plugins.enumerated() {
            registry.register(type(of: plugin))
            declarations.append(PluginDeclaration(name: name, kind: type(of: plugin).kind, path: "plugins[\(index)]"))
        }
        bus = Bus(configuration: BusConfiguration(file: "test-bus", bus: settings, plugins: declarations),
                  registry: registry, plugins: plugins.map(\.value), clock: clock,
                  log: LogSink(minimumLevel: logLevel) { recording.log($0) })
        startRecording()
    }

    deinit {
        running.withLock { $0 }?.cancel()
        recorder.withLock { $0 }?.cancel()
    }

    private func startRecording() {
        // Registered before the bus runs, and lossless: the bus waits for this consumer, which
        // only appends.
        let actions = bus.actions(matching: .all, bufferSize: 1 << 16, overflow: .suspendProducer)
        let recording = recording
        recorder.withLock {
            $0 = Task {
                for await action in actions { recording.record(action) }
                recording.finish()
            }
        }
    }

    // MARK: Running

    /// Runs the bus in a task of its own and waits until every plugin has started and
    /// `bus/started` was reduced and recorded. Returns `false` without recording an issue when
    /// the bus stopped before it became ready (a plugin not ready in time; ``stop()`` rethrows
    /// why).
    @discardableResult
    public func start(sourceLocation: SourceLocation = #_sourceLocation) async -> Bool {
        let bus = bus
        running.withLock { task in
            precondition(task == nil, "TestBus.start() called twice")
            task = Task { try await bus.run() }
        }
        guard await bus.waitUntilReady() else { return false }
        return await wait("bus/started to be recorded", sourceLocation: sourceLocation) { snapshot in
            snapshot.actions.contains { $0.type == "bus/started" }
        }
    }

    /// Stops the bus as a signal would (plugins stop in reverse order, their tasks cancelled),
    /// waits until it and the recording have ended, and returns every recorded action.
    /// - Throws: What ended ``Bus/run()``, such as ``BusError/pluginNotReady(_:timeout:)``.
    @discardableResult
    public func stop() async throws -> [BusAction] {
        bus.stop()
        let task = running.withLock { $0 }
        // A bus never started has no task; its recording ends when the bus is released.
        defer { if task == nil { recorder.withLock { $0 }?.cancel() } }
        try await task?.value
        await recorder.withLock { $0 }?.value
        return actions
    }

    /// Moves the ``ManualClock`` forward, waking the plugins sleeping until then; records an
    /// issue when the bus runs on another clock.
    public func advance(by duration: Duration, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let manual = clock as? ManualClock else {
            Issue.record("TestBus.advance(by:) needs a ManualClock; this bus runs on \(clock)", sourceLocation: sourceLocation)
            return
        }
        manual.advance(by: duration)
    }

    /// Waits until at least `count` tasks sleep on the ``ManualClock`` (the bus's own timers
    /// run on real time, so these are the plugins'), so a test advances time only after a
    /// plugin has set its timer. `false`, with an issue recorded, when that does not happen
    /// within the timeout or the bus runs on another clock.
    @discardableResult
    public func waitForSleepers(atLeast count: Int = 1, sourceLocation: SourceLocation = #_sourceLocation) async -> Bool {
        guard let manual = clock as? ManualClock else {
            Issue.record("TestBus.waitForSleepers(atLeast:) needs a ManualClock; this bus runs on \(clock)", sourceLocation: sourceLocation)
            return false
        }
        guard await manual.waitForSleepers(atLeast: count, limit: timeout) else {
            record("Waited for \(count) sleeper(s) on the manual clock; \(manual.sleeperCount) within \(timeout * RealTimeScale.factor)", sourceLocation)
            return false
        }
        return true
    }

    // MARK: What happened

    /// Every action reduced so far, in order (bus lifecycle actions included).
    public var actions: [BusAction] { recording.snapshot.actions }

    /// The reduced actions whose type matches `pattern` (`gps/fix`, `gps/*`, `*`), in order;
    /// an invalid pattern records an issue and matches nothing.
    public func actions(_ pattern: String, sourceLocation: SourceLocation = #_sourceLocation) -> [BusAction] {
        guard let pattern = typePattern(pattern, sourceLocation) else { return [] }
        return actions.filter { pattern.matches($0.type) }
    }

    /// The payloads of the reduced actions whose type matches `pattern`, in order.
    public func payloads(_ pattern: String, sourceLocation: SourceLocation = #_sourceLocation) -> [JSON] {
        actions(pattern, sourceLocation: sourceLocation).map(\.payload)
    }

    /// The bus state as of the last reduced action: one slice per plugin that keeps one.
    public var state: JSON { bus.currentState }

    /// The log lines the bus and its plugins wrote so far (without timestamps).
    public var logLines: [String] { recording.snapshot.logLines }

    // MARK: Acting

    /// Enqueues an action as the plugin `source` would, without waiting; `false` when the inbox
    /// is full or the bus stopped.
    @discardableResult
    public func send(_ type: String, _ payload: JSON = .null, source: String = "test") -> Bool {
        bus.send(BusAction(type: type, payload: payload, source: source))
    }

    /// Dispatches an action as the plugin `source` would and returns it as reduced and
    /// recorded (with its id and time); `nil` when the bus did not take it.
    @discardableResult
    public func dispatch(
        _ type: String, _ payload: JSON = .null, source: String = "test", sourceLocation: SourceLocation = #_sourceLocation
    ) async -> BusAction? {
        await dispatch(BusAction(type: type, payload: payload, source: source), sourceLocation: sourceLocation)
    }

    /// Dispatches `action` and returns it as reduced and recorded; `nil` when the bus did not
    /// take it.
    @discardableResult
    public func dispatch(_ action: BusAction, sourceLocation: SourceLocation = #_sourceLocation) async -> BusAction? {
        guard let id = await bus.dispatchReturningID(action) else { return nil }
        let found = await wait("\(action.type) (#\(id)) to be recorded", sourceLocation: sourceLocation) { snapshot in
            snapshot.actions.last.map { $0.id >= id } ?? false
        }
        return found ? actions.first { $0.id == id } : nil
    }
}
