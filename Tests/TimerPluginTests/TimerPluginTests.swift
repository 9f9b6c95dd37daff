import Foundation
import Switchyard
import SwitchyardTestSupport
import Testing
import TimerPlugin

private func registry() -> PluginRegistry {
    var registry = PluginRegistry()
    registry.register(TimerPlugin.self)
    return registry
}

struct TimerTests {
    /// With `count`, the timer emits exactly that many actions, numbered from 1, then stops.
    @Test func emitsCountTicksThenStops() async throws {
        let configuration = try BusConfiguration.parse(#"{"plugins": [{"name": "tick", "kind": "timer", "interval": 0.005, "count": 3}]}"#,
                                                       file: "t.json", environment: [:], registry: registry())
        let bus = try Bus(configuration: configuration, registry: registry(), log: LogSink(minimumLevel: .error))
        let ticks = bus.actions(matching: TypePattern("tick/tick")!)
        let running = Task { try await bus.run() }
        var payloads: [JSON] = []
        for await tick in ticks {
            payloads.append(tick.payload)
            #expect(tick.source == "tick")
            if payloads.count == 3 { break }
        }
        #expect(payloads == [["tick": 1], ["tick": 2], ["tick": 3]])
        await waitUntil("the timer plugin has stopped") { bus.statistics.plugins.first?.status == .stopped }
        bus.stop()
        try await running.value
    }

    /// A fixed type and payload are used as given.
    @Test func customTypeAndPayload() throws {
        let plugin = try TimerPlugin(name: "poll", settings: PluginSettings(["type": "rates/reload", "payload": ["force": true], "interval": 60], path: "plugins[0]"))
        #expect(plugin.type == "rates/reload")
        #expect(plugin.payload == ["force": true])
        #expect(plugin.interval == .seconds(60))
    }

    /// Invalid settings are all reported, each with its key path.
    @Test(arguments: [
        (#"{"interval": -1}"#, "plugins[0].interval"),
        (#"{"interval": "soon"}"#, "plugins[0].interval"),
        (#"{"type": "NotAType"}"#, "plugins[0].type"),
        (#"{"count": 0}"#, "plugins[0].count"),
        (#"{"intervall": 1}"#, "did you mean \"interval\""),
    ])
    func invalidSettings(json: String, expected: String) throws {
        let values = try JSON(parsing: json).objectValue ?? [:]
        do {
            _ = try TimerPlugin(name: "tick", settings: PluginSettings(values, path: "plugins[0]"))
            Issue.record("expected \(json) to be rejected")
        } catch let error as PluginSettingsError {
            #expect(error.problems.map(\.description).joined(separator: "\n").contains(expected))
        }
    }
}
