import Foundation
import Testing
@testable import Switchyard

/// A reduced batch's actions are written once (``EncodedBatch``) and those bytes serve the
/// journal's line and every watcher's: they must always spell the action as it is.
struct EncodedBatchTests {
    private static let actions = [
        BusAction(type: "gps/fix", payload: ["lat": 51.5, "tags": ["a\n\"b", nil]], id: 42,
                  time: Date(timeIntervalSince1970: 1_700_000_000.125), source: "gps", cause: 7),
        BusAction(type: "load/n", payload: .null, id: 43, time: Date(timeIntervalSince1970: 1_700_000_000.5), source: "control", cause: nil),
        BusAction(type: "bus/started", payload: ["name": "ünïcode ✓"], id: 44, time: Date(timeIntervalSince1970: 0), source: "bus", cause: 43),
    ]

    private static func line(_ action: BusAction) -> String {
        var bytes: [UInt8] = []
        JournalLine.appendObject(action, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Each action of a batch gets its own object, the one ``BusAction/json`` serializes to,
    /// and the journal's checksummed line over those bytes is the line it writes without them.
    @Test func eachActionKeepsItsOwnObject() {
        var batch = Self.actions
        EncodedBatch.encode(&batch)
        for (encoded, plain) in zip(batch, Self.actions) {
            #expect(encoded.encoded != nil)
            #expect(Self.line(encoded) == plain.json.serialized())
            #expect(encoded == plain)
            #expect(encoded.hashValue == plain.hashValue)
            var reused: [UInt8] = []
            var written: [UInt8] = []
            var chainReused: UInt32 = 5
            var chainWritten: UInt32 = 5
            JournalLine.append(encoded, chain: &chainReused, to: &reused)
            JournalLine.append(plain, chain: &chainWritten, to: &written)
            #expect(reused == written)
            #expect(chainReused == chainWritten)
        }
        var watched: [UInt8] = []
        ControlReply.action(batch[0], into: &watched)
        #expect(String(decoding: watched, as: UTF8.self) == ControlReply.line(["action": Self.actions[0].json, "ok": true]).string)
    }

    /// Changing any field of an action drops its bytes, so a changed copy is never written
    /// with the bytes of the original.
    @Test(arguments: 0..<6) func anyChangeDropsTheBytes(field: Int) {
        var batch = Self.actions
        EncodedBatch.encode(&batch)
        var action = batch[0]
        switch field {
        case 0: action.type = "gps/lost"
        case 1: action.payload["lat"] = 0
        case 2: action.id = 7
        case 3: action.time = Date(timeIntervalSince1970: 5)
        case 4: action.source = "other"
        default: action.cause = nil
        }
        #expect(action.encoded == nil)
        #expect(Self.line(action) == action.json.serialized())
        #expect(batch[0].encoded != nil)
    }
}

private extension [UInt8] {
    var string: String { String(decoding: self, as: UTF8.self) }
}
