import LocationEmitterPlugin
import Switchyard
import SwitchyardTestSupport
import Synchronization

/// A bus with the location-emitter plugin, started from a config text, collecting every
/// reduced action.
struct LocationBus {
    let bus: Bus
    private let collected = Collected()
    private let running: Task<Void, any Error>
    private let collecting: Task<Void, Never>

    private final class Collected: Sendable {
        let actions = Mutex<[BusAction]>([])
    }

    /// Parses `config`, starts the bus on `clock` and waits until it is ready.
    init(_ config: String, clock: any Clock<Duration> = ContinuousClock()) async throws {
        var registry = PluginRegistry()
        registry.register(LocationEmitterPlugin.self)
        let configuration = try BusConfiguration.parse(config, file: "test.json", environment: [:], knownKinds: registry.kinds)
        let bus = try Bus(configuration: configuration, registry: registry, clock: clock, log: LogSink { _ in })
        self.bus = bus
        let actions = bus.actions()
        let collected = collected
        collecting = Task { for await action in actions { collected.actions.withLock { $0.append(action) } } }
        running = Task { try await bus.run() }
        await bus.waitUntilReady()
    }

    /// The actions of `type` so far.
    func actions(_ type: String) -> [BusAction] {
        collected.actions.withLock { $0.filter { $0.type == type } }
    }

    /// Waits until `count` actions of `type` were reduced; `false` after a generous, scaled
    /// real-time bound.
    func wait(for count: Int, of type: String) async -> Bool {
        await eventually { actions(type).count >= count }
    }

    /// Dispatches an action as the plugin `source` would, and returns it as reduced.
    @discardableResult
    func dispatch(_ type: String, _ payload: JSON, from source: String = "gps") async -> BusAction? {
        let before = actions(type).count
        await bus.dispatch(BusAction(type: type, payload: payload, source: source))
        _ = await wait(for: before + 1, of: type)
        return actions(type).last
    }

    /// Stops the bus and waits until it and the collection have ended.
    func stop() async throws {
        bus.stop()
        try await running.value
        await collecting.value
    }
}
