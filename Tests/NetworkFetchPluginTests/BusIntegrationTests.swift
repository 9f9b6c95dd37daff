import Foundation
import Switchyard
import SwitchyardTestSupport
import Synchronization
import Testing

@testable import NetworkFetchPlugin

/// The plugin inside a real bus, configured from JSON with `${ENV}` references, against a real
/// HTTP server on 127.0.0.1.
@Suite(.scaledTimeLimit(minutes: 1))
struct BusIntegrationTests {
    private static func makeBus(_ json: String, environment: [String: String], log: LogSink) throws -> Bus {
        var registry = PluginRegistry()
        registry.register(NetworkFetchPlugin.self)
        let configuration = try BusConfiguration.parse(json, file: "test.json", environment: environment, knownKinds: registry.kinds)
        return try Bus(configuration: configuration, registry: registry, log: log)
    }

    /// A trigger on the bus leads to loading then loaded, caused by the trigger, with the
    /// secret from the environment sent to the server but absent from actions, state and log.
    @Test func fetchesThroughTheBus() async throws {
        let server = try await ScriptedServer.start(routes: ["/rates": [["echo": true]]])
        defer { server.stop() }
        let lines = Mutex<[String]>([])
        let log = LogSink(minimumLevel: .debug) { line in lines.withLock { $0.append(line) } }
        let bus = try Self.makeBus(
            #"""
            {"plugins": [{"name": "currency", "kind": "network-fetch", "on": "rates/reload", "emit": "rates",
              "request": {"url": "${RATES_URL}?from={payload.base}&apikey=${RATES_KEY}",
                          "headers": {"Authorization": "Bearer ${RATES_KEY}"}}}]}
            """#,
            environment: ["RATES_URL": server.url("/rates"), "RATES_KEY": "k3y-from-env"], log: log)
        let actions = bus.actions(matching: TypePattern("rates/*")!)
        let running = Task { try await bus.run() }
        #expect(await bus.waitUntilReady())
        let trigger = BusAction(type: "rates/reload", payload: ["base": "EUR"], source: "test")
        await bus.dispatch(trigger)
        var seen: [BusAction] = []
        for await action in actions where action.source == "currency" {
            seen.append(action)
            if action.type == "rates/loaded" || action.type == "rates/failed" { break }
        }
        #expect(seen.map(\.type) == ["rates/loading", "rates/loaded"])
        #expect(seen.allSatisfy { $0.source == "currency" && $0.cause != nil && $0.cause == seen[0].cause })
        let echo = try #require(seen.last?.payload["value"])
        // The server echoed the key it received; the bus shows the reference in its place.
        #expect(echo["query"] == "from=EUR&apikey=${RATES_KEY}")
        #expect(echo["headers"]?["authorization"] == "Bearer ${RATES_KEY}")
        let slice = try #require(bus.currentState["currency"])
        #expect(slice["status"] == "loaded")
        #expect(slice["requestId"] == seen[0].payload["requestId"])
        bus.stop()
        try await running.value
        #expect(seen[0].payload["url"] == "${RATES_URL}?from=EUR&apikey=***")
        #expect(!seen[0].json.serialized().contains("k3y-from-env"))
        #expect(!lines.withLock { $0.joined() }.contains("k3y-from-env"))
    }

    /// A failing request becomes `failed` with a readable message in the state, and the bus
    /// log names the redacted URL.
    @Test func failureReachesTheState() async throws {
        let server = try await ScriptedServer.start(routes: ["/down": [["status": 404]]])
        defer { server.stop() }
        let lines = Mutex<[String]>([])
        let log = LogSink(minimumLevel: .debug) { line in lines.withLock { $0.append(line) } }
        let bus = try Self.makeBus(
            #"{"plugins": [{"name": "places", "kind": "network-fetch", "on": "location/changed", "request": {"url": "${URL}?token=${TOKEN}"}}]}"#,
            environment: ["URL": server.url("/down"), "TOKEN": "tok-999-secret"], log: log)
        let states = bus.states
        let running = Task { try await bus.run() }
        await bus.waitUntilReady()
        await bus.dispatch(BusAction(type: "location/changed", payload: ["latitude": 1], source: "test"))
        for await state in states where state["places"]?["status"] == "failed" {
            #expect(state["places"]?["error"] == ["kind": "http", "status": 404, "message": "HTTP 404 Not Found", "attempts": 1])
            break
        }
        bus.stop()
        try await running.value
        let logged = lines.withLock { $0.joined(separator: "\n") }
        #expect(logged.contains("GET ${URL}?token=*** failed: HTTP 404 Not Found"))
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
