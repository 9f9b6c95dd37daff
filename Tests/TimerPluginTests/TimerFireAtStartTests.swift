import SwitchyardBus
import SwitchyardBusTesting
import Testing
import TimerPlugin

struct TimerFireAtStartTests {
    /// With `fireAtStart`, the first tick comes at once and the next one interval later
    /// (a manual clock: nothing waits an hour).
    @Test func firesAtStartThenEveryInterval() async throws {
        let clock = ManualClock()
        let bus = try TestBus(configuration: #"{"plugins": [{"name": "hourly", "kind": "timer", "interval": 3600, "fireAtStart": true, "count": 2}]}"#,
                              registry: PluginRegistry(TimerPlugin.self), clock: clock)
        await bus.start()
        let first = await bus.receive("hourly/tick")
        #expect(first?.payload == ["tick": 1])
        #expect(clock.now == ManualClock.Instant(offset: .zero))
        #expect(await bus.waitForSleepers(atLeast: 1))
        bus.advance(by: .seconds(3600))
        let second = await bus.receive("hourly/tick")
        #expect(second?.payload == ["tick": 2])
        try await bus.stop()
    }
}
