import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwitchyardDoors
import SwitchyardPlugins
import SwitchyardTestSupport
import Synchronization
import Testing

/// A kind of a program's own contributes what the bus shows about it exactly as the built-in
/// ones do: metric families, a readiness condition, a position source and an exit hook.
@Suite(.serialized)
struct PluginContributionsTests {
    /// Emits `NAME/at` with the payload of each `NAME/go`; fixed once it has a position.
    struct Beacon: Plugin {
        static let kind = "beacon"
        static let summary = "Emits NAME/at for each NAME/go."
        static let settingDescriptions: [SettingDescription] = []
        static let exits = Counter()

        static var contributions: PluginContributions {
            PluginContributions(
                metrics: [
                    .reported("pings", as: "beacon_pings_total", .counter, help: "Pings sent."),
                    .state("beacon_fixed", .gauge, help: "1 once the beacon has a position.") { $0["status"] == "fixed" ? 1 : 0 },
                ],
                readiness: { plugin in plugin.slice["status"] == "fixed" ? [] : ["beacon \(plugin.name) has no fix"] },
                position: PositionSource(action: "at", latitude: "y", longitude: "x"),
                exitHook: { "beacon note \(exits.increment())" })
        }

        let name: String
        init(name: String, settings: PluginSettings) throws {
            self.name = name
            try settings.finish()
        }

        var subscription: ActionSubscription? { ActionSubscription(TypePattern(name + "/go")!) }
        var slice: StateSlice? {
            StateSlice(initial: ["status": "searching"], actions: TypePattern(name + "/*")!) { slice, action in
                if action.type.hasSuffix("/at") { slice = ["status": "fixed"] }
            }
        }

        func run(context: PluginContext) async throws {
            context.reportCounters { ["pings": 3, "other": 1] }
            for await action in context.actions {
                await context.dispatch("\(context.name)/at", payload: action.payload)
            }
        }
    }

    final class Counter: Sendable {
        private let value = Mutex(0)
        func increment() -> Int { value.withLock { $0 += 1; return $0 } }
    }

    private static func get(_ port: Int, _ path: String) async throws -> (status: Int, text: String) {
        let (data, response) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    @Test(.scaledTimeLimit(minutes: 2)) func ownKindContributes() async throws {
        let directory = try TemporaryDirectory()
        let port = try unusedLocalPort()
        var registry = PluginRegistry.builtIn
        registry.register(Beacon.self)
        let configuration = try BusConfiguration.parse("""
            {"bus": {"name": "beacons", "dataDirectory": "\(directory.path("data"))", "http": {"listen": "127.0.0.1:\(port)"}},
             "plugins": [{"name": "b", "kind": "beacon"}]}
            """, file: "inline.json", environment: [:], registry: registry)
        let bus = try Bus(configuration: configuration, registry: registry, services: BusServices(), serving: .doors())
        let positions = bus.actions(matching: TypePattern("b/at")!)
        let running = Task { try await bus.run() }
        defer { bus.stop() }
        #expect(await bus.waitUntilReady())

        let unready = try await Self.get(port, "/readyz")
        #expect(unready.status == 503 && unready.text.contains("beacon b has no fix"), "\(unready)")
        let page = try await Self.get(port, "/").text
        #expect(page.contains(#""beacon":{"action":"at","latitude":"y","longitude":"x"}"#), "the dashboard gets the beacon's position source")

        await bus.dispatch(BusAction(type: "b/go", payload: ["y": 52.5, "x": 13.25], source: "test"))
        var iterator = positions.makeAsyncIterator()
        let at = try #require(await iterator.next())
        #expect(registry.positionSources.first { $0.kind == "beacon" }?.source.position(in: at)?.latitude == 52.5)
        await waitUntil("/readyz answers ready") { (try? await Self.get(port, "/readyz").status) == 200 }

        let metrics = try await Self.get(port, "/metrics").text.split(separator: "\n").map(String.init)
        #expect(metrics.contains(#"beacon_pings_total{plugin="b"} 3"#))
        #expect(metrics.contains(#"beacon_fixed{plugin="b"} 1"#))
        #expect(metrics.contains("# TYPE beacon_pings_total counter"))
        #expect(metrics.contains(#"switchyard_plugin_counter{plugin="b",kind="beacon",name="other"} 1"#))
        #expect(!metrics.contains { $0.contains(#"name="pings""#) }, "a counter a family shows is not repeated as switchyard_plugin_counter")
        // Not `registry`'s hooks: exec's would kill the children of other tests in this process.
        #expect(PluginRegistry(Beacon.self).runExitHooks() == ["beacon note 1"])

        bus.stop()
        try await running.value
    }
}
