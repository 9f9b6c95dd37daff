import Foundation
import Testing
@testable import Switchyard
@testable import SwitchyardBus

/// The one depth limit at the doors and the larger one the journal reads with.
struct JSONLimitsTests {
    private func nested(_ depth: Int) -> String {
        String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    }

    /// The default parser takes exactly the door depth and refuses one level more.
    @Test func doorDepthIsTheDefault() throws {
        #expect(try JSON(parsing: nested(JSONLimits.maximumDepth)).arrayValue?.count == 1)
        #expect(throws: JSONParseError.self) { try JSON(parsing: nested(JSONLimits.maximumDepth + 1)) }
    }

    /// The journal depth leaves room for the bus's envelopes around a value a door accepted.
    @Test func journalDepthHasRoomForTheEnvelope() throws {
        #expect(JSONLimits.journalDepth == JSONLimits.maximumDepth + JSONLimits.envelopeDepth)
        #expect(JSONLimits.envelopeDepth >= 8)
        #expect(try JSON(parsing: nested(JSONLimits.journalDepth), maximumDepth: JSONLimits.journalDepth).arrayValue?.count == 1)
        #expect(throws: JSONParseError.self) {
            try JSON(parsing: nested(JSONLimits.journalDepth + 1), maximumDepth: JSONLimits.journalDepth)
        }
    }

    /// A journal line whose payload is as deep as a door allows reads back.
    @Test func deepestAcceptedPayloadReadsBackFromTheJournal() throws {
        let payload = try JSON(parsing: nested(JSONLimits.maximumDepth))
        let action = BusAction(type: "deep/value", payload: ["value": payload], id: 7, time: BusClock.now(), source: "test", cause: nil)
        var bytes: [UInt8] = []
        JournalLine.appendObject(action, to: &bytes)
        let decoded = bytes.withUnsafeBufferPointer { JournalLine.decode($0) }
        #expect(try decoded.get().payload == action.payload)
    }
}

/// The snapshot writer and reader agree on the journal depth.
struct SnapshotDepthTests {
    private func nested(_ depth: Int) -> JSON {
        var value: JSON = 1
        for _ in 0..<depth { value = [value] }
        return value
    }

    /// A state holding a door-deep value inside a plugin's slice and loadable reads back from its snapshot.
    @Test func doorDeepStateReadsBack() throws {
        let state: JSON = ["places": ["status": "loaded", "value": nested(JSONLimits.maximumDepth)]]
        let snapshot = JournalSnapshot(sequence: 3, state: state, chain: 7)
        let bytes = try snapshot.encoded(at: Date(timeIntervalSince1970: 0), path: "/j/snapshot")
        let read = try JournalSnapshot.decode(bytes, JournalLayout.Snapshot(sequence: 3, path: "/j/snapshot"))
        #expect(read == snapshot)
    }

    /// A state too deep to read back is never written.
    @Test func tooDeepStateIsNotWritten() {
        let snapshot = JournalSnapshot(sequence: 3, state: nested(JSONLimits.journalDepth))
        #expect(throws: JournalError.self) { try snapshot.encoded(at: Date(timeIntervalSince1970: 0), path: "/j/snapshot") }
    }
}
