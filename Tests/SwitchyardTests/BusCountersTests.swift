import Testing
@testable import Switchyard
@testable import SwitchyardBus

/// The bus's counts of actions by source and type, and of plugins' fetch results.
struct BusCountersTests {
    private func action(_ type: String, source: String, kind: String? = nil) -> BusAction {
        BusAction(type: type, payload: kind.map { ["kind": .string($0)] } ?? .null, source: source)
    }

    /// A plugin's own `NAME/loaded` and `NAME/failed` count as results, a failure by its kind,
    /// in runs of one type and across them; the same types from another source, or other types
    /// ending in `d`, do not.
    @Test func resultsAreCountedByPluginOutcomeAndKind() {
        let counters = BusCounters()
        counters.count([
            action("rates/loaded", source: "rates"),
            action("rates/loaded", source: "rates"),
            action("rates/failed", source: "rates", kind: "timeout"),
            action("rates/failed", source: "rates", kind: "network"),
            action("rates/failed", source: "rates", kind: "timeout"),
            action("rates/failed", source: "rates"),
            action("rates/loaded", source: "control"),
            action("rates/started", source: "rates"),
            action("weather/loaded", source: "weather"),
        ])
        #expect(counters.outcomes() == [
            BusCounters.Outcome(plugin: "rates", outcome: "loaded", kind: ""): 2,
            BusCounters.Outcome(plugin: "rates", outcome: "failed", kind: "timeout"): 2,
            BusCounters.Outcome(plugin: "rates", outcome: "failed", kind: "network"): 1,
            BusCounters.Outcome(plugin: "rates", outcome: "failed", kind: "unknown"): 1,
            BusCounters.Outcome(plugin: "weather", outcome: "loaded", kind: ""): 1,
        ])
    }
}
