import Foundation
import Testing
@testable import Switchyard
@testable import SwitchyardBus
@testable import SwitchyardDoors

/// A batch's actions are written once — by the journal's writer as their lines' bodies, or by
/// the router on a bus without a journal (``EncodedBatch``) — and those bytes serve every
/// watcher's line: they must spell each action as ``BusAction/json`` does.
struct EncodedBatchTests {
    private static let actions = [
        BusAction(type: "gps/fix", payload: ["lat": 51.5, "tags": ["a\n\"b", nil]], id: 42,
                  time: Date(timeIntervalSince1970: 1_700_000_000.125), source: "gps", cause: 7),
        BusAction(type: "load/n", payload: .null, id: 43, time: Date(timeIntervalSince1970: 1_700_000_000.5), source: "control", cause: nil),
        BusAction(type: "bus/started", payload: ["name": "ünïcode ✓"], id: 44, time: Date(timeIntervalSince1970: 0), source: "bus", cause: 43),
    ]

    private static func objects(_ encoded: EncodedBatch, offset: Int = 0) -> [String] {
        Self.actions.indices.map { index in
            var bytes: [UInt8] = []
            encoded.appendObject(at: offset + index, to: &bytes)
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// Encoded on their own, each action's object is the one ``BusAction/json`` serializes to,
    /// and a watcher's line around it is the line the watcher wrote from the JSON value.
    @Test func eachActionKeepsItsOwnObject() throws {
        let encoded = try #require(EncodedBatch.encode(Self.actions))
        #expect(Self.objects(encoded) == Self.actions.map { $0.json.serialized() })
        let run = EncodedRun(batch: encoded, offset: 0, count: Self.actions.count)
        var watched: [UInt8] = []
        ControlReply.action(run.lines(of: Self.actions)[0], into: &watched)
        #expect(String(decoding: watched, as: UTF8.self) == ControlReply.line(["action": Self.actions[0].json, "ok": true]).string)
    }

    /// The writer's objects are the bodies of the lines it wrote, in order, also for a batch
    /// written in a group after another one.
    @Test func theWritersObjectsAreItsLinesBodies() throws {
        let directory = try JournalTestDirectory()
        try FileManager.default.createDirectory(atPath: directory.journal, withIntermediateDirectories: true)
        let layout = JournalLayout(directory: directory.journal)
        let restored = try JournalRestore(layout: layout).restore(initialState: .null, adopt: { $0 }, reduce: { _, _ in })
        let writer = try JournalWriter(layout: layout, restored: restored, settings: JournalSettings(fsync: .never, snapshotEvery: 10_000))
        let first = Self.actions.enumerated().map { index, action in
            var action = action
            action.id = UInt64(index + 1)
            action.cause = nil
            return action
        }
        let second = Self.actions.enumerated().map { index, action in
            var action = action
            action.id = UInt64(index + 4)
            return action
        }
        let encoded = try #require(try writer.append(contentsOf: [first, second]))
        #expect(encoded.spans.count == 6)
        #expect(Self.objects(encoded) == first.map { $0.json.serialized() })
        #expect(Self.objects(encoded, offset: 3) == second.map { $0.json.serialized() })
        try writer.close()
        #expect(try JournalDirectory(dataDirectory: directory.path).verify().actions == 6)
    }
}

private extension [UInt8] {
    var string: String { String(decoding: self, as: UTF8.self) }
}
