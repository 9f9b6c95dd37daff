import Foundation
import SwitchyardTestSupport
import Testing
@testable import Switchyard
@testable import SwitchyardBus

/// A question near the last one (a dashboard's drag) is answered from the last answer's
/// segment, kept decoded (``HistoryRecentSegment``): the same moments a fresh reader finds,
/// forward, backward, across kept states and across segments and snapshots, for less work.
struct StateHistoryNearbyTests {
    /// A counter bus's journal of `count` added numbers, a snapshot (and a new segment) every
    /// `snapshotEvery` actions; the model of its configuration.
    private func journal(_ directory: JournalTestDirectory, count: Int, snapshotEvery: Int = 7) async throws -> BusStateModel {
        let registry = journalRegistry()
        let configuration = try journaledConfiguration(directory.path + "/data", plugins: #"[{"name": "w", "kind": "counter"}]"#,
                                                       journal: #"{"fsync": "interval", "snapshotEvery": \#(snapshotEvery)}"#, registry: registry)
        let bus = try Bus(configuration: configuration, registry: registry, services: BusServices(), log: LogSink(minimumLevel: .error))
        try await whileRunning(bus) {
            for n in 1...count {
                _ = try #require(await bus.dispatchReturningID(BusAction(type: "count/add", payload: .integer(Int64(n * 7 % 13)), source: "test")))
            }
        }
        return try BusStateModel(configuration: configuration, registry: registry)
    }

    /// A drag back and forth over the whole journal, steps of up to 9 actions: every answer
    /// of the reader that keeps its last segments (with states every 2 actions inside them,
    /// thinned past 3, and checkpoints every 3 actions) equals a fresh reader's, which reduces
    /// from the nearest snapshot or the start.
    @Test(arguments: [7, 40])
    func nearbyAnswersEqualFreshOnes(snapshotEvery: Int) async throws {
        let directory = try JournalTestDirectory()
        let model = try await journal(directory, count: 60, snapshotEvery: snapshotEvery)
        let data = directory.path + "/data"
        let dragged = StateHistory(dataDirectory: data, model: model, checkpoints: HistoryCheckpoints(interval: 3, capacity: 8),
                                   recent: HistoryRecentSegment(markSpacing: 2, markLimit: 3))
        let end = try dragged.latestID()
        var generator = SeededGenerator(seed: 37)
        var point = end / 2
        var asked: [UInt64] = []
        for _ in 0..<150 {
            point = UInt64(min(Int(end), max(1, Int(point) + Int.random(in: -9...9, using: &generator))))
            asked.append(point)
            let near = try dragged.moment(at: .id(point))
            let fresh = try StateHistory(dataDirectory: data, model: model).moment(at: .id(point))
            #expect(near.action == fresh.action, "action \(point)")
            #expect(near.state == fresh.state, "state after action \(point)")
        }
        let segments = Set(asked.map { id in directory.files(in: "data/journal").filter { $0.hasPrefix("segment-") }.last { segmentStart($0) <= id } })
        #expect(segments.count > (snapshotEvery < 10 ? 3 : 1), "the drag crossed segments and snapshots")
    }

    /// Within a segment, a step forward reduces only the actions stepped over, the same point
    /// again none, and a step back only from the segment's start or a kept state; a point in
    /// another segment walks the journal again.
    @Test func aNearbyQuestionReducesOnlyTheStep() async throws {
        let directory = try JournalTestDirectory()
        let model = try await journal(directory, count: 40)
        let history = StateHistory(dataDirectory: directory.path + "/data", model: model, checkpoints: HistoryCheckpoints(interval: 1000))
        let starts = directory.files(in: "data/journal").filter { $0.hasPrefix("segment-") }.map(segmentStart).sorted()
        let first = try #require(starts.dropFirst(2).first)
        let next = try #require(starts.first { $0 > first })
        #expect(next - first >= 6, "a segment of 6 actions or more: \(starts)")

        _ = try history.moment(at: .id(first + 1))
        var reduced = history.recent.reduced
        func reducedSince() -> Int {
            defer { reduced = history.recent.reduced }
            return history.recent.reduced - reduced
        }
        #expect(try history.moment(at: .id(first + 4)).action.id == first + 4)
        #expect(reducedSince() == 3)
        #expect(try history.moment(at: .id(first + 4)).action.id == first + 4)
        #expect(reducedSince() == 0)
        #expect(try history.moment(at: .id(first + 2)).action.id == first + 2)
        #expect(reducedSince() == 3, "from the state before the segment's first action")
        #expect(try history.moment(at: .id(first + 5)).action.id == first + 5)
        #expect(reducedSince() == 3)
        // Across the segment's end and back, as a drag goes: both segments stay kept.
        #expect(try history.moment(at: .id(next + 1)).action.id == next + 1)
        #expect(reducedSince() > 1, "another segment walks the journal")
        #expect(history.recent.segments.map(\.firstSequence) == [next, first])
        #expect(try history.moment(at: .id(first + 5)).action.id == first + 5)
        #expect(reducedSince() == 0)
        #expect(try history.moment(at: .id(next + 2)).action.id == next + 2)
        #expect(reducedSince() == 1)
        // The first segment has no snapshot before it: the walk reduces from the start, and
        // its segment takes the place of the one answered in least recently.
        #expect(try history.moment(at: .id(2)).action.id == 2)
        #expect(reducedSince() == 2)
        #expect(history.recent.segments.map(\.firstSequence) == [starts[0], next])
    }

    /// Inside a long segment a question back starts from the nearest state kept on the way
    /// (every 4 actions, then every 8 once more than 4 would be kept), so it reduces fewer
    /// actions than that spacing, never the whole way from the segment's start.
    @Test func aStepBackStartsFromTheNearestKeptState() async throws {
        let directory = try JournalTestDirectory()
        let model = try await journal(directory, count: 100, snapshotEvery: 40)
        let data = directory.path + "/data"
        let history = StateHistory(dataDirectory: data, model: model, checkpoints: HistoryCheckpoints(interval: 1000),
                                   recent: HistoryRecentSegment(markSpacing: 4, markLimit: 4))
        let starts = directory.files(in: "data/journal").filter { $0.hasPrefix("segment-") }.map(segmentStart).sorted()
        let first = try #require(starts.dropFirst().first)
        let next = try #require(starts.first { $0 > first })
        #expect(next - first >= 32, "a segment of 32 actions or more: \(starts)")
        let base = first - 1

        _ = try history.moment(at: .id(base + 31))
        var reduced = history.recent.reduced
        func reducedSince() -> Int {
            defer { reduced = history.recent.reduced }
            return history.recent.reduced - reduced
        }
        // Kept on the walk to 31: after base, 8, 16 and 24 (4 and 12 thinned away at 16).
        for (point, expected) in [(26, 2), (23, 7), (9, 1), (8, 8), (3, 3), (30, 6)] {
            let moment = try history.moment(at: .id(base + UInt64(point)))
            #expect(moment.action.id == base + UInt64(point))
            #expect(moment.state == (try StateHistory(dataDirectory: data, model: model).moment(at: .id(base + UInt64(point))).state))
            #expect(reducedSince() == expected, "to \(point) from the nearest state kept before it")
        }
    }

    /// Kept segments are let go when asked (the HTTP door's reader idle), and a kept segment
    /// whose file is gone (compacted away) answers nothing from memory: the question walks the
    /// journal, which no longer holds the action.
    @Test func aSegmentGoneIsLetGo() async throws {
        let directory = try JournalTestDirectory()
        let model = try await journal(directory, count: 30)
        let history = StateHistory(dataDirectory: directory.path + "/data", model: model)
        let names = directory.files(in: "data/journal").filter { $0.hasPrefix("segment-") }.sorted { segmentStart($0) < segmentStart($1) }
        let first = segmentStart(try #require(names.dropFirst().first))
        _ = try history.moment(at: .id(first + 1))
        #expect(history.recent.segments.map(\.firstSequence) == [first])
        history.letGoOfKeptSegments()
        #expect(history.recent.segments.isEmpty)
        _ = try history.moment(at: .id(first + 1))
        #expect(history.recent.segments.map(\.firstSequence) == [first])
        try FileManager.default.removeItem(atPath: directory.path + "/data/journal/" + names[1])
        #expect(throws: HistoryError.self) { try history.moment(at: .id(first + 2)) }
        #expect(history.recent.segments.isEmpty)
    }

    private func segmentStart(_ name: String) -> UInt64 {
        UInt64(name.dropFirst("segment-".count).prefix { $0.isNumber }) ?? 0
    }
}
