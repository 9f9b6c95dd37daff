import Foundation
import SwitchyardTestSupport
import Testing
@testable import Switchyard
@testable import SwitchyardBus

/// The state at a point of the journal, why a value is so, and what changed between two
/// points: read from a real bus's data directory, across snapshots and segments.
struct StateHistoryTests {
    private let journal = #"{"fsync": "interval", "snapshotEvery": 7}"#

    /// A counter bus on `directory` and the model of its configuration.
    private func makeBus(_ directory: JournalTestDirectory) throws -> (Bus, BusStateModel) {
        let registry = journalRegistry()
        let configuration = try journaledConfiguration(directory.path + "/data", plugins: #"[{"name": "w", "kind": "counter"}]"#,
                                                       journal: journal, registry: registry)
        let bus = try Bus(configuration: configuration, registry: registry, services: BusServices(), log: LogSink(minimumLevel: .error))
        return (bus, try BusStateModel(configuration: configuration, registry: registry))
    }

    private func add(_ n: Int, cause: UInt64? = nil, to bus: Bus) async throws -> UInt64 {
        try #require(await bus.dispatchReturningID(BusAction(type: "count/add", payload: .integer(Int64(n)), source: "test", cause: cause)))
    }

    /// Every moment of a journal of many segments and pruned snapshots equals the state the bus
    /// had right after that action, read while the bus runs and after it stopped.
    @Test func everyMomentIsTheStateTheBusHadThen() async throws {
        let directory = try JournalTestDirectory()
        let (bus, model) = try makeBus(directory)
        let history = StateHistory(dataDirectory: directory.path + "/data", model: model)
        var states: [(UInt64, JSON)] = []
        try await whileRunning(bus) {
            for n in 1...45 {
                states.append((try await add(n * 3 % 11, to: bus), bus.currentState))
            }
            let live = try history.moment(at: .id(states[20].0))
            #expect(live.state == states[20].1)
        }
        let snapshots = directory.files(in: "data/journal").filter { $0.hasPrefix("snapshot-") }
        #expect(snapshots.count == 2, "older moments are reduced from the initial state: \(snapshots)")
        for (id, state) in states {
            let moment = try history.moment(at: .id(id))
            #expect(moment.action.id == id && moment.action.type == "count/add")
            #expect(moment.state == state, "state after action \(id)")
        }
        // Kept states every 3 actions, at most 4, spread out: later questions start from them.
        let checkpoints = HistoryCheckpoints(interval: 3, capacity: 4)
        let keeping = StateHistory(dataDirectory: directory.path + "/data", model: model, checkpoints: checkpoints)
        _ = try keeping.moment(at: .id(states[30].0))
        #expect(checkpoints.count == 4)
        #expect(checkpoints.before(.max).allSatisfy { $0.sequence % 3 == 0 })
        for (id, state) in states.reversed() {
            #expect(try keeping.moment(at: .id(id)).state == state, "state after action \(id), from a kept state")
        }
        // A time names the last action stamped at or before it (several share a millisecond).
        let time = try history.moment(at: .id(states[9].0)).action.time
        let byTime = try history.moment(at: .time(time))
        #expect(byTime.action.id >= states[9].0 && byTime.action.time == time)
        #expect(try history.moment(at: .id(byTime.action.id + 1)).action.time > time)
    }

    /// Bad points get a clear error of the right kind; a time after the last action is the
    /// state after the last.
    @Test func badPointsAreRefusedClearly() async throws {
        let directory = try JournalTestDirectory()
        let (bus, model) = try makeBus(directory)
        var last: UInt64 = 0
        try await whileRunning(bus) { last = try await add(5, to: bus) }
        let history = StateHistory(dataDirectory: directory.path + "/data", model: model)
        let end = try history.latestID()
        #expect(end > last)
        for text in ["", "abc", "0", "-3", "1.5", "99999999999999999999999", "2026-13-45T99:00:00Z"] {
            #expect(throws: HistoryError.self, "\(text)") { try HistoryPoint(text) }
            #expect((try? HistoryPoint(text)) == nil)
            do { _ = try HistoryPoint(text) } catch { #expect(error.code == "invalid-field" && error.status == 400) }
        }
        for point: HistoryPoint in [.id(end + 1), .id(UInt64.max), .time(Date(timeIntervalSince1970: 1))] {
            do {
                _ = try history.moment(at: point)
                Issue.record("\(point) answered")
            } catch {
                #expect(error.code == "not-found" && error.status == 404, "\(error)")
                #expect(error.message.contains(point == .time(Date(timeIntervalSince1970: 1)) ? "before the journal's first action" : "ends at action \(end)"),
                        "\(error.message)")
            }
        }
        let future = try history.moment(at: .time(Date(timeIntervalSince1970: 4_000_000_000)))
        #expect(future.action.id == end)
        let empty = try JournalTestDirectory()
        try FileManager.default.createDirectory(atPath: empty.path + "/journal", withIntermediateDirectories: true)
        #expect(throws: HistoryError.self) { try StateHistory(dataDirectory: empty.path, model: model).moment(at: .id(1)) }
    }

    /// `why` names the last action that changed the path, even behind a snapshot of actions
    /// that did not, with the value before and after and the chain of causes to an origin.
    @Test func whyFollowsTheChangeAndItsCauses() async throws {
        let directory = try JournalTestDirectory()
        let (bus, model) = try makeBus(directory)
        var ids: (origin: UInt64, relay: UInt64, change: UInt64, later: UInt64) = (0, 0, 0, 0)
        try await whileRunning(bus) {
            _ = try await add(4, to: bus)
            ids.origin = try #require(await bus.dispatchReturningID(BusAction(type: "door/opened", source: "control")))
            ids.relay = try #require(await bus.dispatchReturningID(BusAction(type: "door/relayed", source: "relay", cause: ids.origin)))
            ids.change = try await add(6, cause: ids.relay, to: bus)
            // More than a snapshot interval of actions that leave the total alone.
            for _ in 1...20 { ids.later = try #require(await bus.dispatchReturningID(BusAction(type: "note/tick", source: "test"))) }
        }
        let history = StateHistory(dataDirectory: directory.path + "/data", model: model)
        let why = try history.why(path: "w.total", at: .id(ids.later))
        #expect(why.value == 10)
        #expect(why.moment.id == ids.later)
        #expect(why.changedBy?.id == ids.change)
        #expect(why.before == 4 && why.after == 10)
        #expect(why.causes.map(\.id) == [ids.relay, ids.origin])
        #expect(why.causes.last?.cause == nil)
        #expect(why.json["changedBy"]?["type"] == "count/add")

        let unchanged = try history.why(path: "w.last", at: .id(1))
        #expect(unchanged.changedBy == nil && unchanged.value == .null)
        do {
            _ = try history.why(path: "w.nothing", at: .id(ids.later))
            Issue.record("a missing path answered")
        } catch {
            #expect(error.code == "not-found")
        }
        let changes = try history.difference(from: .id(ids.origin), to: .id(ids.later))
        #expect(changes.map(\.path) == ["w.count", "w.last", "w.total"])
        #expect(changes.last?.left == 4 && changes.last?.right == 10)
    }
}
