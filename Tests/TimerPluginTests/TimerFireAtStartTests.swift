import Switchyard
import SwitchyardTesting
import Testing
import TimerPlugin

struct TimerFireAtStartTests {
    private func registry() -> PluginRegistry {
        var registry = PluginRegistry()
        registry.register(TimerPlugin.self)
        return registry
    }

    /// With `fireAtStart`, the first tick comes at once and the next one interval later
    /// (a manual clock: nothing waits an hour).
    @Test func firesAtStartThenEveryInterval() async throws {
        let clock = ManualClock()
        let configuration = try BusConfiguration.parse(#"{"plugins": [{"name": "hourly", "kind": "timer", "interval": 3600, "fireAtStart": true, "count": 2}]}"#,
                                                       file: "t.json", environment: [:], registry: registry())
        let bus = try Bus(configuration: configuration, registry: registry(), clock: clock, log: LogSink(minimumLevel: .error))
        var ticks = bus.actions(matching: TypePattern("hourly/tick")!).makeAsyncIterator()
        let running = Task { try await bus.run() }
        let first = await ticks.next()
        #expect(first?.payload == ["tick": 1])
        #expect(clock.now == ManualClock.Instant(offset: .zero))
        #expect(await clock.waitForSleepers(atLeast: 1, limit: .seconds(30)))
        clock.advance(by: .seconds(3600))
        let second = await ticks.next()
        #expect(second?.payload == ["tick": 2])
        bus.stop()
        try await running.value
    }
}
