import Foundation
import Testing
@testable import Switchyard
@testable import SwitchyardBus

/// Exported action lines, importing them into a data directory, and reading recordings.
struct JournalTransferTests {
    private func lines(_ actions: [BusAction]) -> [UInt8] {
        var bytes: [UInt8] = []
        for action in actions { ActionLines.append(action, to: &bytes) }
        return bytes
    }

    private let good = #"{"cause":null,"id":4,"payload":1,"source":"s","time":"2026-11-22T09:30:00.000Z","type":"a/b"}"#

    /// Exported lines read back into the same actions, in order.
    @Test func linesRoundTrip() throws {
        let actions = (1...5).map { journaled($0, payload: .integer(Int64($0))) }
        #expect(try ActionLines.parse(lines(actions), file: "x.jsonl") == actions)
    }

    /// Every kind of bad line is refused with its line number and reason; nothing is returned.
    @Test(arguments: [
        ("not json", "not a JSON object"),
        (#"[1,2]"#, "expected an action object"),
        (#"{"id":5,"time":"2026-11-22T09:30:00Z","source":"s"}"#, "no \"type\""),
        (#"{"id":5,"source":"s","type":"a/b"}"#, "no \"time\""),
        (#"{"id":0,"time":"2026-11-22T09:30:00Z","source":"s","type":"a/b"}"#, "must be positive"),
        (#"{"id":3,"time":"2026-11-22T09:30:00Z","source":"s","type":"a/b"}"#, "ids must increase"),
        (#"{"id":9,"cause":9,"time":"2026-11-22T09:30:00Z","source":"s","type":"a/b"}"#, "not an earlier action"),
        (#"{"id":9,"time":"yesterday","source":"s","type":"a/b"}"#, "invalid \"time\""),
        (#"{"id":9,"time":"2026-11-22T09:30:00Z","source":"s","type":"Not A Type"}"#, "\"type\" must be"),
    ])
    func badLineIsNamed(line: String, reason: String) throws {
        let text = good + "\n\n" + line + "\n" + good.replacingOccurrences(of: #""id":4"#, with: #""id":40"#) + "\n"
        do {
            _ = try ActionLines.parse(Array(text.utf8), file: "bug.jsonl")
            Issue.record("accepted \(line)")
        } catch {
            #expect(error.description.contains("bug.jsonl: line 3 (byte \(good.utf8.count + 2))"), "\(error)")
            #expect(error.description.contains(reason), "\(error)")
        }
    }

    /// An import into a new directory gives ids from 1, keeps type, payload, source and time,
    /// and leaves a journal that verifies and restores.
    @Test func importIntoNewDirectory() throws {
        let directory = try JournalTestDirectory()
        var recorded = (100...104).map { journaled($0, payload: .integer(Int64($0))) }
        recorded[0].cause = 42
        let result = try JournalDirectory(dataDirectory: directory.path).importActions(recorded)
        #expect(result.journalIDs == 1...5)
        #expect(result.recordedIDs == 100...104)
        let verification = try JournalDirectory(dataDirectory: directory.path).verify()
        #expect(verification.actions == 5)
        var read: [BusAction] = []
        try JournalDirectory(dataDirectory: directory.path).forEachAction { read.append($0); return true }
        #expect(read.map(\.id) == Array(1...5))
        #expect(read.map(\.cause) == [nil, 1, 2, 3, 4])
        #expect(read.map(\.payload) == recorded.map(\.payload))
        #expect(read.map(\.time) == recorded.map(\.time))
        #expect(read.map(\.source) == recorded.map(\.source))
    }

    /// A second import continues after every id the journal gave out: none is reused, and the
    /// chain of checksums stays whole.
    @Test func importContinuesTheSequence() throws {
        let directory = try JournalTestDirectory()
        let journal = JournalDirectory(dataDirectory: directory.path)
        _ = try journal.importActions((1...3).map { journaled($0) })
        let second = try journal.importActions((1...3).map { journaled($0) })
        #expect(second.journalIDs == 4...6)
        #expect(try journal.verify().lastSequence == 6)
    }

    /// A data directory a bus holds is refused with the owner named, and nothing is written.
    @Test func importRefusedWhileABusHoldsTheDirectory() throws {
        let directory = try JournalTestDirectory()
        let lock = try DataDirectoryLock(dataDirectory: directory.path)
        do {
            _ = try JournalDirectory(dataDirectory: directory.path).importActions([journaled(1)])
            Issue.record("imported into a held directory")
        } catch {
            #expect(error.isInUse)
            #expect(error.description.contains("in use by another bus"))
        }
        withExtendedLifetime(lock) {}
        #expect(directory.files().isEmpty)
    }

    /// A damaged journal is not appended to: the error names the damage and the file is unchanged.
    @Test func importRefusesADamagedJournal() throws {
        let directory = try JournalTestDirectory()
        let journal = JournalDirectory(dataDirectory: directory.path)
        _ = try journal.importActions((1...3).map { journaled($0) })
        let segment = directory.journal + "/" + (directory.files().first { $0.hasPrefix("segment-") } ?? "")
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: segment)))
        bytes[bytes.count - 20] ^= 1
        try Data(bytes).write(to: URL(fileURLWithPath: segment))
        #expect(throws: JournalError.self) { _ = try journal.importActions([journaled(9)]) }
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: segment))) == bytes)
    }

    /// A recording is a data directory, its journal directory or an exported file; anything
    /// else is refused with the path named.
    @Test func recordingsAreFoundOrRefused() throws {
        let directory = try JournalTestDirectory()
        _ = try JournalDirectory(dataDirectory: directory.path).importActions((1...3).map { journaled($0) })
        try directory.write("export.jsonl", String(decoding: lines((1...2).map { journaled($0) }), as: UTF8.self))
        #expect(try JournalRecording(path: directory.path).actions(where: { _ in true }).count == 3)
        #expect(try JournalRecording(path: directory.journal).actions(where: { _ in true }).count == 3)
        #expect(try JournalRecording(path: directory.path + "/export.jsonl").actions(where: { _ in true }).count == 2)
        let empty = try JournalTestDirectory()
        #expect { _ = try JournalRecording(path: empty.path) } throws: { "\($0)".contains("without a journal/") }
        #expect { _ = try JournalRecording(path: empty.path + "/missing") } throws: { "\($0)".contains("No such file or directory") }
    }
}
