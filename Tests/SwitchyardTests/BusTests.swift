import SwitchyardBus
import SwitchyardTestSupport
import Testing

struct BusTests {
    /// Plugins receive matching actions, emit caused actions, and keep their state slice.
    @Test func pluginsReactAndKeepSlices() async throws {
        let bus = try makeBus(#"{"plugins": [{"name": "echo", "kind": "echo", "prefix": "re: "}]}"#)
        let running = Task { try await bus.run() }
        #expect(await bus.waitUntilReady())
        let pongs = bus.actions(matching: TypePattern("echo/pong")!)
        await bus.dispatch(BusAction(type: "ping/hello", payload: "world", source: "test"))
        var iterator = pongs.makeAsyncIterator()
        let pong = await iterator.next()
        #expect(pong?.payload == "re: world")
        #expect(pong?.source == "echo")
        #expect(pong?.cause != nil)
        #expect(bus.currentState.value(atPath: "echo.pongs") == 1)
        bus.stop()
        try await running.value
    }

    /// Ids are strictly increasing in reduction order and every action keeps its cause.
    @Test func idsIncreaseAndCausesTrace() async throws {
        let bus = try makeBus(#"{"plugins": [{"name": "echo", "kind": "echo"}]}"#)
        let running = Task { try await bus.run() }
        await bus.waitUntilReady()
        let all = bus.actions()
        for index in 0..<20 { bus.send(BusAction(type: "ping/n", payload: .integer(Int64(index)), source: "test")) }
        var seen: [BusAction] = []
        for await action in all {
            seen.append(action)
            if seen.filter({ $0.type == "echo/pong" }).count == 20 { break }
        }
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.id < $1.id })
        let pings = Dictionary(uniqueKeysWithValues: seen.filter { $0.type == "ping/n" }.map { ($0.id, $0) })
        for pong in seen where pong.type == "echo/pong" {
            #expect(pong.cause.flatMap { pings[$0] } != nil)
        }
        bus.stop()
        try await running.value
    }

    /// The lifecycle actions come in order: started after every plugin, stopping at the end.
    @Test func lifecycleActions() async throws {
        let bus = try makeBus(#"{"bus": {"name": "life"}, "plugins": [{"name": "a", "kind": "recorder"}, {"name": "b", "kind": "recorder"}]}"#)
        let lifecycle = bus.actions(matching: TypePattern("bus/*")!)
        let running = Task { try await bus.run() }
        await bus.waitUntilReady()
        bus.stop()
        try await running.value
        var types: [String] = []
        for await action in lifecycle { types.append(action.type) }
        #expect(types == ["bus/started", "bus/stopping"])
    }

    /// Plugins start in file order and stop in reverse order.
    @Test func startAndStopOrder() async throws {
        let bus = try makeBus(#"{"plugins": [{"name": "order-1", "kind": "recorder"}, {"name": "order-2", "kind": "recorder"}, {"name": "order-3", "kind": "recorder"}]}"#)
        // Other tests use the recorder too: look at this test's plugins only.
        let ours = { RecorderPlugin.events.withLock { $0 }.filter { $0.contains("order-") } }
        let running = Task { try await bus.run() }
        await bus.waitUntilReady()
        await waitUntil("the three plugins have started") { ours().count >= 3 }
        running.cancel()
        try await running.value
        let events = ours()
        #expect(Set(events.prefix(3)) == ["start order-1", "start order-2", "start order-3"])
        #expect(Array(events.suffix(3)) == ["stop order-3", "stop order-2", "stop order-1"])
    }

    /// A failing plugin is reported and restarted with backoff while the others keep working.
    @Test func failingPluginIsRestartedAndIsolated() async throws {
        let bus = try makeBus("""
            {"plugins": [
              {"name": "shaky", "kind": "flaky", "failures": 2,
               "restart": {"policy": "on-failure", "initialBackoff": 0.01, "maxBackoff": 0.05}},
              {"name": "echo", "kind": "echo"}
            ]}
            """)
        let watched = bus.actions(matching: TypePattern("*")!)
        let running = Task { try await bus.run() }
        await bus.waitUntilReady()
        await bus.dispatch(BusAction(type: "ping/x", source: "test"))
        var failed = 0
        var restarted = 0
        var sawPong = false
        for await action in watched {
            switch action.type {
            case "bus/plugin-failed":
                failed += 1
                #expect(action.payload["plugin"] == "shaky")
                #expect(action.payload["error"]?.stringValue?.contains("deliberate failure") == true)
            case "bus/plugin-restarted": restarted += 1
            case "echo/pong": sawPong = true
            default: break
            }
            if action.type == "shaky/up" { break }
        }
        #expect(failed == 2)
        #expect(restarted == 2)
        #expect(sawPong)
        let shaky = bus.statistics.plugins.first { $0.name == "shaky" }
        #expect(shaky?.restarts == 2)
        #expect(shaky?.failures == 2)
        bus.stop()
        try await running.value
    }

    /// With restart "never" a failed plugin stays failed and the bus keeps running.
    @Test func neverRestartLeavesPluginFailed() async throws {
        let bus = try makeBus("""
            {"plugins": [{"name": "once", "kind": "flaky", "failures": 5, "restart": "never"}, {"name": "echo", "kind": "echo"}]}
            """)
        let failures = bus.actions(matching: TypePattern("bus/plugin-failed")!)
        let running = Task { try await bus.run() }
        await bus.waitUntilReady()
        var iterator = failures.makeAsyncIterator()
        let failure = await iterator.next()
        #expect(failure?.payload["restartIn"] == .null)
        await waitUntil("the plugin is marked failed") { bus.statistics.plugins.first?.status == .failed }
        let pongs = bus.actions(matching: TypePattern("echo/pong")!)
        await bus.dispatch(BusAction(type: "ping/still-alive", source: "test"))
        var pongIterator = pongs.makeAsyncIterator()
        #expect(await pongIterator.next() != nil)
        bus.stop()
        try await running.value
    }

    /// A plugin that does not signal readiness in time fails the start-up.
    @Test func readinessTimeoutFailsStart() async throws {
        let bus = try makeBus(#"{"plugins": [{"name": "slow", "kind": "handshake", "ready": false}]}"#)
        await #expect(throws: BusError.pluginNotReady("slow", timeout: .milliseconds(200))) {
            try await bus.run()
        }
        #expect(await bus.waitUntilReady() == false)
    }

    /// A plugin that signals readiness lets the bus start.
    @Test func signalledReadiness() async throws {
        let bus = try makeBus(#"{"plugins": [{"name": "quick", "kind": "handshake"}]}"#)
        let running = Task { try await bus.run() }
        #expect(await bus.waitUntilReady())
        bus.stop()
        try await running.value
    }

    /// Plugin settings problems of every plugin are reported together, with key paths.
    @Test func pluginSettingsProblemsAreCollected() throws {
        let registry = testRegistry()
        let configuration = try BusConfiguration.parse("""
            {"plugins": [{"name": "a", "kind": "echo", "prefx": "x"}, {"name": "b", "kind": "flaky", "failures": "many"}]}
            """, file: "bad.json", environment: [:], knownKinds: registry.kinds)
        do {
            _ = try Bus(configuration: configuration, registry: registry)
            Issue.record("expected a configuration error")
        } catch {
            let text = error.description
            #expect(text.contains("bad.json: plugins[0].prefx"))
            #expect(text.contains("did you mean \"prefix\""))
            #expect(text.contains("bad.json: plugins[1].failures"))
        }
    }

    /// A plugin that returns because the bus is stopping is not restarted, even with "always".
    @Test func noRestartWhileStopping() async throws {
        let bus = try makeBus(#"{"plugins": [{"name": "echo", "kind": "echo", "restart": "always"}]}"#)
        let running = Task { try await bus.run() }
        await bus.waitUntilReady()
        bus.stop()
        try await running.value
        let echo = bus.statistics.plugins.first
        #expect(echo?.restarts == 0)
        #expect(echo?.status == .stopped)
    }

    /// Stopping before the bus finished starting ends it cleanly.
    @Test func stopDuringStartup() async throws {
        let bus = try makeBus(#"{"plugins": [{"name": "a", "kind": "recorder"}]}"#)
        bus.stop()
        try await bus.run()
        #expect(await bus.waitUntilReady() == false)
    }
}
