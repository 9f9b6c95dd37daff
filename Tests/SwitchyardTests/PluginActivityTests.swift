import Foundation
import SwitchyardTestSupport
import Testing
@testable import Switchyard
@testable import SwitchyardBus

/// What the journal tells of each plugin at a moment: emitted counts, last action, and the
/// lifecycle the bus journaled, folded action by action and served with a past state.
struct PluginActivityTests {
    private func action(_ id: UInt64, _ type: String, from source: String, _ payload: JSON = .null) -> BusAction {
        BusAction(type: type, payload: payload, id: id, time: Date(timeIntervalSince1970: 1_700_000_000 + Double(id)), source: source, cause: nil)
    }

    @Test func foldCountsEmittedLastAndLifecycle() {
        var activity = PluginActivity(since: 0)
        let actions = [
            action(1, "bus/started", from: "bus", ["name": "t", "plugins": ["gps", "log"]]),
            action(2, "gps/fix", from: "gps", ["lat": 1]),
            action(3, "gps/fix", from: "gps"),
            action(4, "bus/plugin-failed", from: "bus", ["plugin": "gps", "kind": "gpsd", "error": "refused", "failures": 1, "restartIn": 0.5]),
            action(5, "note/x", from: "control"),
            action(6, "bus/plugin-restarted", from: "bus", ["plugin": "gps", "restarts": 1]),
            action(7, "gps/status", from: "gps"),
        ]
        for action in actions { activity.fold(action) }
        let gps = try! #require(activity.sources["gps"])
        #expect(gps.emitted == 3)
        #expect(gps.lastType == "gps/status" && gps.lastID == 7 && gps.lastTime == actions[6].time)
        #expect(gps.status == "running" && gps.restarts == 1 && gps.failures == 1 && gps.lastError == "refused")
        #expect(activity.sources["log"] == PluginActivity.Entry(status: "running"))
        #expect(activity.sources["control"]?.emitted == 1 && activity.sources["bus"]?.emitted == 3)
        #expect(activity.json["sources"]?["gps"]?["last"]?["id"] == 7)
        #expect(activity.json["sources"]?["log"]?["last"] == .null)

        var failedThen = PluginActivity(since: 0)
        for action in actions.prefix(4) { failedThen.fold(action) }
        #expect(failedThen.sources["gps"]?.status == "failed" && failedThen.sources["gps"]?.restarts == nil)
        failedThen.fold(action(8, "bus/stopping", from: "bus"))
        #expect(failedThen.sources["gps"]?.status == "stopping" && failedThen.sources["log"]?.status == "stopping")
        #expect(failedThen.sources["control"]?.status == nil, "a source no lifecycle action named has none")
    }

    /// Garbage in a lifecycle action's payload is passed over; sources beyond the limit are
    /// counted, not kept.
    @Test func foldIsBounded() {
        var activity = PluginActivity(since: 12)
        activity.fold(action(13, "bus/plugin-failed", from: "bus", ["plugin": 5]))
        activity.fold(action(14, "bus/started", from: "bus", ["plugins": "gps"]))
        #expect(activity.sources.keys.sorted() == ["bus"])
        for index in 0..<(PluginActivity.sourceLimit + 10) { activity.fold(action(UInt64(15 + index), "x/y", from: "s\(index)")) }
        #expect(activity.sources.count == PluginActivity.sourceLimit)
        #expect(activity.untracked == 11)
        #expect(activity.json["since"] == 12 && activity.json["untracked"] == 11)
    }

    /// A past moment carries the fold of the journal's actions up to it, on a fresh reader and
    /// on one answering from its last segment.
    @Test func aMomentCarriesTheActivityThen() async throws {
        let directory = try JournalTestDirectory()
        let registry = journalRegistry()
        let configuration = try journaledConfiguration(directory.path + "/data", plugins: #"[{"name": "w", "kind": "counter"}]"#,
                                                       journal: #"{"fsync": "interval", "snapshotEvery": 1000}"#, registry: registry)
        let bus = try Bus(configuration: configuration, registry: registry, services: BusServices(), log: LogSink(minimumLevel: .error))
        var ids: [UInt64] = []
        try await whileRunning(bus) {
            for n in 1...12 {
                ids.append(try #require(await bus.dispatchReturningID(BusAction(type: "count/add", payload: .integer(Int64(n)), source: n % 3 == 0 ? "door" : "test"))))
            }
        }
        let history = StateHistory(dataDirectory: directory.path + "/data", model: try BusStateModel(configuration: configuration, registry: registry))
        for point in [ids[7], ids[3], ids[10], ids[10]] {
            let plugins = try #require(try history.moment(at: .id(point)).plugins)
            #expect(plugins.since == 0)
            let sent = ids.enumerated().filter { $0.element <= point }
            #expect(plugins.sources["test"]?.emitted == sent.filter { ($0.offset + 1) % 3 != 0 }.count, "after \(point)")
            #expect(plugins.sources["door"]?.emitted == sent.filter { ($0.offset + 1) % 3 == 0 }.count, "after \(point)")
            #expect(plugins.sources["w"]?.status == "running")
        }
    }
}
