import Foundation
import SwitchyardPlugins
import Testing

/// A plugin kind of the program's own, next to the built-in ones.
private struct Heartbeat: Plugin {
    static let kind = "heartbeat"
    static let summary = "Emits NAME/beat periodically."
    static let settingDescriptions = [SettingDescription("every", "number of seconds > 0", default: "1", "Time between beats.")]

    let every: Duration

    init(name: String, settings: PluginSettings) throws {
        every = settings.seconds("every", default: .seconds(1), range: 0.01...3600)
        try settings.finish()
    }

    func run(context: PluginContext) async throws {
        while !Task.isCancelled {
            try await context.sleep(for: every)
            await context.dispatch("\(context.name)/beat")
        }
    }
}

struct ProductsTests {
    /// `PluginRegistry.builtIn` from the SwitchyardPlugins product knows every built-in kind.
    @Test func builtInRegistryKnowsEveryKind() {
        #expect(PluginRegistry.builtIn.kinds == ["exec", "gpsd", "location-emitter", "logger", "nats", "network-fetch", "timer"])
    }

    /// A program builds its own bus from gpsd, network-fetch and logger plus a kind of its own,
    /// and runs it (the gpsd plugin only tries to connect; the heartbeat is what we watch).
    @Test func ownBusWithBuiltInsAndOwnKind() async throws {
        var registry = PluginRegistry.builtIn
        registry.register(Heartbeat.self)
        let configuration = try BusConfiguration.parse("""
            {"plugins": [
              {"name": "gps", "kind": "gpsd", "host": "127.0.0.1", "port": 1},
              {"name": "places", "kind": "network-fetch", "on": "location/changed",
               "request": {"url": "http://127.0.0.1:1/places?lat={payload.latitude}"}},
              {"name": "log", "kind": "logger", "to": "/dev/null"},
              {"name": "pulse", "kind": "heartbeat", "every": 0.01}
            ]}
            """, file: "inline.json", environment: [:], registry: registry)
        let bus = try Bus(configuration: configuration, registry: registry)
        let beats = bus.actions(matching: TypePattern("pulse/beat")!)
        let running = Task { try await bus.run() }
        var iterator = beats.makeAsyncIterator()
        let beat = await iterator.next()
        #expect(beat?.type == "pulse/beat")
        bus.stop()
        _ = try? await running.value
    }
}
