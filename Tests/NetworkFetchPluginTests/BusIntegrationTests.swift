import Foundation
import SwitchyardBus
import SwitchyardTestSupport
import SwitchyardBusTesting
import Testing

@testable import NetworkFetchPlugin

/// The plugin inside a real bus, configured from JSON with `${ENV}` references, against a real
/// HTTP server on 127.0.0.1.
@Suite(.scaledTimeLimit(minutes: 1))
struct BusIntegrationTests {
    /// A test bus with the network-fetch kind, on real time (the server answers in real time).
    private static func makeBus(_ json: String, environment: [String: String]) throws -> TestBus {
        try TestBus(configuration: json, registry: PluginRegistry(NetworkFetchPlugin.self), environment: environment, clock: ContinuousClock())
    }

    /// A trigger on the bus leads to loading then loaded, caused by the trigger, with the
    /// credential from the environment sent to the server, absent from the plugin's own actions
    /// and log, and kept as the server answered in the response it emits.
    @Test func fetchesThroughTheBus() async throws {
        let server = try await ScriptedServer.start(routes: ["/rates": [["echo": true]]])
        defer { server.stop() }
        let bus = try Self.makeBus(
            #"""
            {"plugins": [{"name": "currency", "kind": "network-fetch", "on": "rates/reload", "emit": "rates",
              "request": {"url": "${RATES_URL}?from={payload.base}&apikey=${RATES_KEY}",
                          "headers": {"Authorization": "Bearer ${RATES_KEY}"}}}]}
            """#,
            environment: ["RATES_URL": server.url("/rates"), "RATES_KEY": "k3y-from-env"])
        #expect(await bus.start())
        await bus.dispatch("rates/reload", ["base": "EUR"])
        await bus.receive("rates/*", where: { $0.source == "currency" && ($0.type == "rates/loaded" || $0.type == "rates/failed") })
        let seen = bus.actions("rates/*").filter { $0.source == "currency" }
        #expect(seen.map(\.type) == ["rates/loading", "rates/loaded"])
        #expect(seen.allSatisfy { $0.source == "currency" && $0.cause != nil && $0.cause == seen[0].cause })
        let echo = try #require(seen.last?.payload["value"])
        // The server echoed the key it received: a response is never rewritten.
        #expect(echo["query"] == "from=EUR&apikey=k3y-from-env")
        #expect(echo["headers"]?["authorization"] == "Bearer k3y-from-env")
        let slice = try #require(bus.state["currency"])
        #expect(slice["status"] == "loaded")
        #expect(slice["requestId"] == seen[0].payload["requestId"])
        try await bus.stop()
        #expect(seen[0].payload["url"] == .string(server.url("/rates") + "?from=EUR&apikey=***"))
        #expect(!seen[0].json.serialized().contains("k3y-from-env"))
        #expect(!bus.logLines.joined().contains("k3y-from-env"))
    }

    /// A failing request becomes `failed` with a readable message in the state, and the bus
    /// log names the redacted URL.
    @Test func failureReachesTheState() async throws {
        let server = try await ScriptedServer.start(routes: ["/down": [["status": 404]]])
        defer { server.stop() }
        let bus = try Self.makeBus(
            #"{"plugins": [{"name": "places", "kind": "network-fetch", "on": "location/changed", "request": {"url": "${URL}?token=${TOKEN}"}}]}"#,
            environment: ["URL": server.url("/down"), "TOKEN": "tok-999-secret"])
        #expect(await bus.start())
        await bus.dispatch("location/changed", ["latitude": 1])
        await bus.receive("places/failed")
        #expect(bus.state["places"]?["status"] == "failed")
        #expect(bus.state["places"]?["error"] == ["kind": "http", "status": 404, "message": "HTTP 404 Not Found", "attempts": 1])
        try await bus.stop()
        let logged = bus.logLines.joined(separator: "\n")
        #expect(logged.contains("GET \(server.url("/down"))?token=*** failed: HTTP 404 Not Found"))
        #expect(!logged.contains("tok-999-secret"))
    }
}

/// The example configurations in `Config/` are valid for this plugin.
struct ConfigFileTests {
    private static let configDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Config")

    /// Each file's `network-fetch` entries build, with the environment their URLs reference.
    @Test(arguments: ["places.json", "currency.json", "tracker.json"])
    func exampleConfigBuilds(file: String) throws {
        let path = Self.configDirectory.appendingPathComponent(file).path
        let configuration = try BusConfiguration.load(
            contentsOf: path, environment: ["PLACES_URL": "https://places.example/nearby"],
            knownKinds: ["gpsd", "location-emitter", "logger", "network-fetch", "timer"])
        let declarations = configuration.plugins.filter { $0.kind == NetworkFetchPlugin.kind }
        #expect(declarations.count == 1)
        for declaration in declarations {
            _ = try NetworkFetchPlugin(name: declaration.name, settings: PluginSettings(declaration))
        }
    }
}
