import Foundation
import SwitchyardBus
import SwitchyardTestSupport
import SwitchyardBusTesting
import Testing
import TimerPlugin

struct TimerTests {
    /// With `count`, the timer emits exactly that many actions, numbered from 1, one interval
    /// apart on the bus clock, then stops.
    @Test func emitsCountTicksThenStops() async throws {
        let bus = try TestBus(configuration: #"{"plugins": [{"name": "tick", "kind": "timer", "interval": 5, "count": 3}]}"#,
                              registry: PluginRegistry(TimerPlugin.self))
        await bus.start()
        for expected in 1...3 {
            #expect(await bus.waitForSleepers(atLeast: 1))
            #expect(bus.actions("tick/tick").count == expected - 1)
            bus.advance(by: .seconds(5))
            let tick = await bus.receive("tick/tick")
            #expect(tick?.payload == ["tick": .integer(Int64(expected))])
            #expect(tick?.source == "tick")
        }
        await waitUntil("the timer plugin has stopped") { bus.bus.statistics.plugins.first?.status == .stopped }
        let all = try await bus.stop()
        #expect(all.filter { $0.type == "tick/tick" }.map(\.payload) == [["tick": 1], ["tick": 2], ["tick": 3]])
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

    /// The bound `plugins timer` and the schema show is the one validation applies and names:
    /// one wording everywhere, and the schema refuses what the bus refuses.
    @Test(arguments: [#"{"interval": "soon"}"#, #"{"interval": 0}"#, #"{"interval": 40000000}"#])
    func intervalBoundIsWordedOnce(json: String) throws {
        let shown = try #require(TimerPlugin.settingDescriptions.first { $0.key == "interval" })
        let values = try JSON(parsing: json).objectValue ?? [:]
        #expect(throws: PluginSettingsError.self) {
            do {
                _ = try TimerPlugin(name: "tick", settings: PluginSettings(values, path: "plugins[0]"))
            } catch let error as PluginSettingsError {
                #expect(error.problems.map(\.description).joined().contains("expected a \(shown.type), got"))
                throw error
            }
        }
        let bounds = shown.valueSchema["anyOf"]?.arrayValue?.first
        #expect(bounds?["minimum"] == 0.001)
        #expect(bounds?["maximum"] == .integer(31_536_000))
    }
}
