import Foundation
import Testing
@testable import Switchyard
@testable import SwitchyardBus

/// The journal's files, without a bus: lines, segments, snapshots, restore, verify, compact.
struct JournalTests {
    private func restore(_ directory: JournalTestDirectory) throws(JournalError) -> JournalRestore.Outcome {
        try JournalRestore(layout: JournalLayout(directory: directory.journal)).restore(
            initialState: ["sum": 0], adopt: { $0 },
            reduce: { state, action in state["sum"] = .integer(Int64((state["sum"]?.intValue ?? 0) + Int(action.id))) }
        )
    }

    private func makeJournal(_ directory: JournalTestDirectory) throws {
        try FileManager.default.createDirectory(atPath: directory.journal, withIntermediateDirectories: true)
    }

    /// A journal line is the action's JSON object and reads back to the same action.
    @Test func lineRoundTrip() throws {
        let action = BusAction(type: "gps/fix", payload: ["lat": 51.5, "tags": ["a\n\"b", nil]], id: 42,
                               time: Date(timeIntervalSince1970: 1_700_000_000.125), source: "gps", cause: 7)
        var bytes: [UInt8] = []
        JournalLine.append(action, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == action.json.serialized() + "\n")
        let decoded = bytes.dropLast().withUnsafeBufferPointer { JournalLine.decode($0) }
        #expect(try decoded.get() == action)
    }

    /// The bus stamps whole milliseconds, so a replayed action's time equals the reduced one's.
    @Test(arguments: 0..<200) func stampedTimesSurviveTheJournal(offset: Int) throws {
        var action = journaled(1)
        action.time = BusClock.nearestMillisecond(Date(timeIntervalSince1970: 1_712_345_678 + Double(offset) * 0.0137))
        var bytes: [UInt8] = []
        JournalLine.append(action, to: &bytes)
        let decoded = try bytes.dropLast().withUnsafeBufferPointer { JournalLine.decode($0) }.get()
        #expect(decoded.time == action.time)
    }

    /// Lines that are not journaled actions are rejected with a reason.
    @Test(arguments: [
        ("{\"type\":\"a/b\"}", "no \"id\""),
        ("[1]", "expected an action object"),
        ("{\"cause\":null,\"id\":0,\"payload\":null,\"source\":\"s\",\"time\":\"2024-01-01T00:00:00.000Z\",\"type\":\"a/b\"}", "positive"),
        ("{\"cause\":null,\"id\":1,\"payload\":null,\"source\":\"s\",\"time\":\"yesterday\",\"type\":\"a/b\"}", "time"),
        ("{\"id\":1,", "not a JSON object"),
    ])
    func badLines(line: String, reason: String) {
        let result = Array(line.utf8).withUnsafeBufferPointer { JournalLine.decode($0) }
        guard case .failure(let error) = result else {
            Issue.record("accepted \(line)")
            return
        }
        #expect(error.description.contains(reason))
    }

    /// A torn last line in the newest segment is tolerated and cut off when appending resumes.
    @Test func tornLastLineIsTolerated() throws {
        let directory = try JournalTestDirectory()
        try makeJournal(directory)
        let path = directory.journal + "/segment-00000000000000000001.jsonl"
        let torn = #"{"cause":2,"id":4,"pay"#
        try (segmentText((1...3).map { journaled($0) }) + torn).write(toFile: path, atomically: false, encoding: .utf8)
        let outcome = try restore(directory)
        #expect(outcome.lastSequence == 3)
        #expect(outcome.state["sum"] == 6)
        #expect(outcome.tornLength == torn.utf8.count)
        let writer = try JournalWriter(layout: JournalLayout(directory: directory.journal), restored: outcome, settings: JournalSettings(fsync: .always))
        try writer.append([journaled(4)])
        let again = try restore(directory)
        #expect(again.lastSequence == 4)
        #expect(again.tornLength == 0)
        #expect(try JournalDirectory(dataDirectory: directory.path).verify().actions == 4)
    }

    /// A bad line before the end is reported with its file, line number and byte offset.
    @Test func corruptLineIsReportedPrecisely() throws {
        let directory = try JournalTestDirectory()
        try makeJournal(directory)
        let good = segmentText([journaled(1), journaled(2)])
        let path = directory.journal + "/segment-00000000000000000001.jsonl"
        try (good + "{garbage}\n" + segmentText([journaled(3)])).write(toFile: path, atomically: false, encoding: .utf8)
        let expected = "\(path): line 3 (byte \(good.utf8.count))"
        do {
            _ = try restore(directory)
            Issue.record("restored a corrupt journal")
        } catch {
            #expect(error.isCorruption)
            #expect(error.description.contains(expected))
        }
        #expect(throws: JournalError.self) { try JournalDirectory(dataDirectory: directory.path).verify() }
    }

    /// A gap in the sequence, within or between segments, is corruption, never skipped.
    @Test func sequenceGapsAreCorruption() throws {
        let directory = try JournalTestDirectory()
        try makeJournal(directory)
        try segmentText([journaled(1), journaled(2), journaled(4)])
            .write(toFile: directory.journal + "/segment-00000000000000000001.jsonl", atomically: false, encoding: .utf8)
        #expect(throws: JournalError.self) { try restore(directory) }

        let other = try JournalTestDirectory()
        try makeJournal(other)
        try segmentText([journaled(1), journaled(2)])
            .write(toFile: other.journal + "/segment-00000000000000000001.jsonl", atomically: false, encoding: .utf8)
        try segmentText([journaled(5)])
            .write(toFile: other.journal + "/segment-00000000000000000005.jsonl", atomically: false, encoding: .utf8)
        do {
            _ = try JournalDirectory(dataDirectory: other.path).verify()
            Issue.record("verified a journal with a gap")
        } catch {
            #expect(error.description.contains("expected sequence 3, found 5"))
        }
    }

    /// A torn line in a segment that a newer one follows is corruption.
    @Test func tornLineInOlderSegmentIsCorruption() throws {
        let directory = try JournalTestDirectory()
        try makeJournal(directory)
        try (segmentText([journaled(1)]) + "{\"cau")
            .write(toFile: directory.journal + "/segment-00000000000000000001.jsonl", atomically: false, encoding: .utf8)
        try segmentText([journaled(2)])
            .write(toFile: directory.journal + "/segment-00000000000000000002.jsonl", atomically: false, encoding: .utf8)
        do {
            _ = try restore(directory)
            Issue.record("restored a journal with a torn older segment")
        } catch {
            #expect(error.description.contains("segment-00000000000000000001.jsonl: line 2"))
            #expect(error.description.contains("newer segment follows"))
        }
    }

    /// Restore starts from the latest snapshot and replays only what follows it.
    @Test func restoreFromSnapshotReplaysTheRest() throws {
        let directory = try JournalTestDirectory()
        try makeJournal(directory)
        let layout = JournalLayout(directory: directory.journal)
        try segmentText((1...5).map { journaled($0) }).write(toFile: layout.segmentPath(firstSequence: 1), atomically: false, encoding: .utf8)
        try segmentText((6...8).map { journaled($0) }).write(toFile: layout.segmentPath(firstSequence: 6), atomically: false, encoding: .utf8)
        try JournalSnapshot(sequence: 5, state: ["sum": 1000]).write(in: layout, at: Date())
        let outcome = try restore(directory)
        #expect(outcome.snapshotSequence == 5)
        #expect(outcome.replayed == 3)
        #expect(outcome.state["sum"] == .integer(1000 + 6 + 7 + 8))
        #expect(outcome.lastSequence == 8)
    }

    /// A snapshot whose later actions are gone is reported, not silently used.
    @Test func missingActionsAfterSnapshot() throws {
        let directory = try JournalTestDirectory()
        try makeJournal(directory)
        let layout = JournalLayout(directory: directory.journal)
        try JournalSnapshot(sequence: 5, state: ["sum": 15]).write(in: layout, at: Date())
        try segmentText([journaled(9)]).write(toFile: layout.segmentPath(firstSequence: 9), atomically: false, encoding: .utf8)
        do {
            _ = try restore(directory)
            Issue.record("restored across missing actions")
        } catch {
            #expect(error.description.contains("actions after sequence 5 are missing"))
        }
    }

    /// A damaged snapshot is reported with its file.
    @Test func corruptSnapshotIsReported() throws {
        let directory = try JournalTestDirectory()
        try makeJournal(directory)
        try "{\"sequence\": 3, \"sta".write(toFile: directory.journal + "/snapshot-00000000000000000003.json", atomically: false, encoding: .utf8)
        do {
            _ = try restore(directory)
            Issue.record("restored from a corrupt snapshot")
        } catch {
            #expect(error.description.contains("snapshot-00000000000000000003.json"))
        }
    }

    /// The writer rotates at a due snapshot, hands it out once, and keeps the sequence across segments.
    @Test func writerRotatesAtSnapshots() throws {
        let directory = try JournalTestDirectory()
        try makeJournal(directory)
        let layout = JournalLayout(directory: directory.journal)
        let writer = try JournalWriter(layout: layout, restored: try restore(directory), settings: JournalSettings(fsync: .never, snapshotEvery: 3))
        try writer.append([journaled(1), journaled(2)])
        #expect(writer.takeSnapshotDue() == nil)
        try writer.append([journaled(3), journaled(4)])
        #expect(writer.takeSnapshotDue()?.sequence == 4)
        #expect(writer.takeSnapshotDue() == nil)
        try writer.append([journaled(5)])
        #expect(try layout.list().segments.map(\.firstSequence) == [1, 5])
        #expect(writer.segments == 2)
        #expect(writer.lastSequence == 5)
        let report = try JournalDirectory(dataDirectory: directory.path).verify()
        #expect(report.actions == 5)
        #expect(report.firstSequence == 1 && report.lastSequence == 5)
    }

    /// Compaction removes what the latest snapshot covers; a restore afterwards gives the same state.
    @Test func compactionKeepsWhatRestoreNeeds() throws {
        let directory = try JournalTestDirectory()
        try makeJournal(directory)
        let layout = JournalLayout(directory: directory.journal)
        try segmentText((1...3).map { journaled($0) }).write(toFile: layout.segmentPath(firstSequence: 1), atomically: false, encoding: .utf8)
        try segmentText((4...6).map { journaled($0) }).write(toFile: layout.segmentPath(firstSequence: 4), atomically: false, encoding: .utf8)
        try segmentText((7...8).map { journaled($0) }).write(toFile: layout.segmentPath(firstSequence: 7), atomically: false, encoding: .utf8)
        try JournalSnapshot(sequence: 3, state: ["sum": 6]).write(in: layout, at: Date())
        try JournalSnapshot(sequence: 6, state: ["sum": 21]).write(in: layout, at: Date())
        let before = try restore(directory)
        let result = try JournalDirectory(dataDirectory: directory.path).compact()
        #expect(result.removedSegments == 2)
        #expect(result.removedSnapshots == 1)
        #expect(directory.files() == ["segment-00000000000000000007.jsonl", "snapshot-00000000000000000006.json"])
        let after = try restore(directory)
        #expect(after.state == before.state)
        #expect(after.lastSequence == 8)
        let report = try JournalDirectory(dataDirectory: directory.path).verify()
        #expect(report.firstSequence == 7)
    }

    /// Without a snapshot compaction removes nothing.
    @Test func compactionWithoutSnapshot() throws {
        let directory = try JournalTestDirectory()
        try makeJournal(directory)
        try segmentText([journaled(1)]).write(toFile: directory.journal + "/segment-00000000000000000001.jsonl", atomically: false, encoding: .utf8)
        let result = try JournalDirectory(dataDirectory: directory.path).compact()
        #expect(result.snapshotSequence == nil)
        #expect(result.description.contains("nothing to compact"))
        #expect(directory.files().count == 1)
    }

    /// Showing the journal hands every action over in order and stops when asked.
    @Test func showListsActionsInOrder() throws {
        let directory = try JournalTestDirectory()
        try makeJournal(directory)
        let layout = JournalLayout(directory: directory.journal)
        try segmentText((1...2).map { journaled($0) }).write(toFile: layout.segmentPath(firstSequence: 1), atomically: false, encoding: .utf8)
        try segmentText((3...4).map { journaled($0) }).write(toFile: layout.segmentPath(firstSequence: 3), atomically: false, encoding: .utf8)
        var ids: [UInt64] = []
        try JournalDirectory(dataDirectory: directory.path).forEachAction { ids.append($0.id); return true }
        #expect(ids == [1, 2, 3, 4])
        ids = []
        try JournalDirectory(dataDirectory: directory.path).forEachAction { ids.append($0.id); return ids.count < 3 }
        #expect(ids == [1, 2, 3])
    }

    /// A data directory is held by one bus at a time; the lock goes with its holder.
    @Test func dataDirectoryLock() throws {
        let directory = try JournalTestDirectory()
        var first: DataDirectoryLock? = try DataDirectoryLock(dataDirectory: directory.path + "/data")
        do {
            _ = try DataDirectoryLock(dataDirectory: directory.path + "/data")
            Issue.record("locked twice")
        } catch {
            #expect(error.isInUse)
            #expect(error.description.contains("pid \(getpid())"))
        }
        #expect(first != nil)
        first = nil
        #expect(throws: Never.self) { _ = try DataDirectoryLock(dataDirectory: directory.path + "/data") }
    }

    /// A data directory path that is a file is reported.
    @Test func dataDirectoryThatIsAFile() throws {
        let directory = try JournalTestDirectory()
        try directory.write("plain", "x")
        #expect(throws: JournalError.self) { try DataDirectoryLock(dataDirectory: directory.path + "/plain") }
    }
}
