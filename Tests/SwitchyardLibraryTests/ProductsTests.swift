import Foundation
import SwitchyardPlugins
import SwitchyardBusTesting
import Testing

struct ProductsTests {
    /// `PluginRegistry.builtIn` from the SwitchyardPlugins product knows every built-in kind.
    @Test func builtInRegistryKnowsEveryKind() {
        #expect(PluginRegistry.builtIn.kinds == ["exec", "gpsd", "location-emitter", "logger", "nats", "network-fetch", "timer"])
    }

    /// A program builds its own bus from gpsd, network-fetch and logger plus a kind of its own,
    /// and runs it (the gpsd plugin only tries to connect; the autosave is what we watch).
    @Test func ownBusWithBuiltInsAndOwnKind() async throws {
        var registry = PluginRegistry.builtIn
        registry.register(Autosave.self)
        let bus = try TestBus(configuration: """
            {"plugins": [
              {"name": "gps", "kind": "gpsd", "host": "127.0.0.1", "port": 1},
              {"name": "places", "kind": "network-fetch", "on": "location/changed",
               "request": {"url": "http://127.0.0.1:1/places?lat={payload.latitude}"}},
              {"name": "log", "kind": "logger", "to": "/dev/null"},
              {"name": "autosave", "kind": "autosave", "quietPeriod": 0.01}
            ]}
            """, registry: registry, clock: ContinuousClock())
        #expect(await bus.start())
        let edit = await bus.dispatch("document/edited", ["text": "hi"])
        let saved = await bus.receive("autosave/saved")
        #expect(saved?.cause == edit?.id)
        try await bus.stop()
    }
}
