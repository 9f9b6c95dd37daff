import Synchronization
import SwitchyardTestSupport
import Testing
@testable import Switchyard
@testable import SwitchyardBus
@testable import SwitchyardDoors

/// `Bus.run`'s task group: every runner a child, stopped in reverse start order with a grace,
/// a runner that ignores cancellation abandoned visibly, and reloads adding and removing children.
@Suite(.scaledTimeLimit(minutes: 3))
struct SupervisionTests {
    private func configuration(_ json: String) throws -> BusConfiguration {
        try BusConfiguration.parse(json, file: "test.json", environment: [:], knownKinds: supervisionRegistry().kinds)
    }

    private func recorded(_ prefix: String) -> [String] {
        RecorderPlugin.events.withLock { $0 }.filter { $0.hasSuffix(" " + prefix) || $0.contains(" \(prefix)-") }
    }

    /// A plugin that ignores cancellation is abandoned after the stop timeout: the bus still stops, logs it once and counts it.
    @Test func runawayPluginIsAbandonedAndCounted() async throws {
        defer { StubbornPlugin.release() }
        let lines = Mutex([String]())
        let log = LogSink(minimumLevel: .warning) { line in lines.withLock { $0.append(line) } }
        let bus = try Bus(configuration: configuration("""
            {"bus": {"stopTimeout": 0.5}, "plugins": [{"name": "runaway-stuck", "kind": "stubborn"}, {"name": "runaway-steady", "kind": "recorder"}]}
            """), registry: supervisionRegistry(), log: log)
        let running = Task { try await bus.run() }
        #expect(await bus.waitUntilReady())
        await waitUntil("the stubborn plugin runs") { StubbornPlugin.started.withLock { $0.contains("runaway-stuck") } }
        bus.stop()
        try await running.value
        let abandoned = lines.withLock { $0 }.filter { $0.contains("abandoned") }
        #expect(abandoned.count == 1)
        #expect(abandoned.first?.contains("runaway-stuck") == true)
        #expect(bus.statistics.abandonedPlugins == 1)
        #expect(bus.statistics.json["abandonedPlugins"] == 1)
        #expect(BusMetrics.exposition(of: bus.metricsSnapshot()).contains("switchyard_plugins_abandoned_total 1"))
        // Stopped before the runaway (reverse order), the well-behaved plugin ended as usual.
        #expect(recorded("runaway-steady") == ["start runaway-steady", "stop runaway-steady"])
    }

    /// A plugin that throws is restarted per its policy and then given up on, while the others keep answering and the bus stops cleanly.
    @Test func throwingPluginIsRestartedPerPolicy() async throws {
        let bus = try Bus(configuration: configuration("""
            {"plugins": [{"name": "thrower", "kind": "throwing",
                          "restart": {"policy": "on-failure", "maxRestarts": 2, "initialBackoff": 0.01, "maxBackoff": 0.02}},
                         {"name": "echo", "kind": "echo"}]}
            """), registry: supervisionRegistry(), log: LogSink(minimumLevel: .error))
        let running = Task { try await bus.run() }
        #expect(await bus.waitUntilReady())
        await waitUntil("the thrower is given up on") { bus.statistics.plugins.first?.status == .failed }
        let thrower = bus.statistics.plugins.first
        #expect(thrower?.restarts == 2)
        #expect(thrower?.failures == 3)
        #expect(ThrowingPlugin.attempts.withLock { $0["thrower"] } == 3)
        let pongs = bus.actions(matching: TypePattern("echo/pong")!)
        await bus.dispatch(BusAction(type: "ping/alive", source: "test"))
        var iterator = pongs.makeAsyncIterator()
        #expect(await iterator.next() != nil)
        bus.stop()
        try await running.value
        #expect(bus.statistics.abandonedPlugins == 0)
    }

    /// Stopping reverses the start order, which after a reload that started a plugin first in the file puts that plugin first.
    @Test func stopOrderReversesStartOrder() async throws {
        let registry = supervisionRegistry()
        let bus = try Bus(configuration: configuration("""
            {"plugins": [{"name": "order2-a", "kind": "recorder"}, {"name": "order2-b", "kind": "recorder"}]}
            """), registry: registry, log: LogSink(minimumLevel: .error))
        let running = Task { try await bus.run() }
        #expect(await bus.waitUntilReady())
        await waitUntil("both plugins run") { recorded("order2").count == 2 }
        try await bus.reload(configuration("""
            {"plugins": [{"name": "order2-c", "kind": "recorder"}, {"name": "order2-a", "kind": "recorder"}, {"name": "order2-b", "kind": "recorder"}]}
            """))
        await waitUntil("the added plugin runs") { recorded("order2").count == 3 }
        #expect(bus.children.started.map(\.name) == ["order2-a", "order2-b", "order2-c"])
        bus.stop()
        try await running.value
        #expect(recorded("order2") == ["start order2-a", "start order2-b", "start order2-c",
                                       "stop order2-c", "stop order2-b", "stop order2-a"])
    }

    /// A reload stops a removed plugin's child and adds a child for an added plugin to the same group, and the bus then stops them all.
    @Test func reloadAddsAndRemovesChildren() async throws {
        let bus = try Bus(configuration: configuration("""
            {"plugins": [{"name": "swap-old", "kind": "recorder"}, {"name": "swap-echo", "kind": "echo"}]}
            """), registry: supervisionRegistry(), log: LogSink(minimumLevel: .error))
        let running = Task { try await bus.run() }
        #expect(await bus.waitUntilReady())
        await waitUntil("the old plugin runs") { recorded("swap-old") == ["start swap-old"] }
        let report = try await bus.reload(configuration("""
            {"plugins": [{"name": "swap-echo", "kind": "echo"}, {"name": "swap-new", "kind": "recorder"}]}
            """))
        #expect(report.removed == ["swap-old"])
        #expect(report.added == ["swap-new"])
        #expect(recorded("swap-old") == ["start swap-old", "stop swap-old"])
        await waitUntil("the added plugin runs") { recorded("swap-new") == ["start swap-new"] }
        #expect(bus.children.started.map(\.name) == ["swap-echo", "swap-new"])
        let pongs = bus.actions(matching: TypePattern("swap-echo/pong")!)
        await bus.dispatch(BusAction(type: "ping/after-reload", source: "test"))
        var iterator = pongs.makeAsyncIterator()
        #expect(await iterator.next() != nil)
        bus.stop()
        try await running.value
        #expect(recorded("swap-new") == ["start swap-new", "stop swap-new"])
        #expect(bus.statistics.plugins.allSatisfy { $0.status == .stopped })
        #expect(bus.statistics.abandonedPlugins == 0)
    }
}
