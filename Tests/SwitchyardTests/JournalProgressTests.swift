import Foundation
import SwitchyardTestSupport
import Synchronization
import Testing
@testable import Switchyard
@testable import SwitchyardBus

/// ``JournalProgress``: what an interrupt means before and during writing, the reports the
/// walk and an import give, and an import that stops at a batch boundary.
struct JournalProgressTests {
    /// Before writing an interrupt ends the work at once and nothing may then be written;
    /// during writing it waits for the batch, however often it comes.
    @Test func interruptBeforeAndDuringWriting() {
        let reading = JournalProgress()
        #expect(reading.interrupt() == .endNow)
        #expect(reading.isInterrupted)
        #expect(!reading.beginWriting())

        let writing = JournalProgress()
        #expect(!writing.isInterrupted)
        #expect(writing.beginWriting())
        #expect(writing.interrupt() == .stopAtBatch)
        #expect(writing.interrupt() == .stopAtBatch)
        #expect(writing.isInterrupted)
    }

    /// An import interrupted while it appends stops after the batch being written: the journal
    /// holds the first actions, whole, and the result says how many of how many.
    @Test func interruptedImportKeepsAWholePrefix() throws {
        let directory = try TemporaryDirectory()
        let count = 3 * JournalDirectory.importBatch
        let actions = (1...UInt64(count)).map { journaled($0, payload: .integer(Int64($0))) }
        let reports = Mutex<[JournalProgress.Report]>([])
        let holder = Mutex<JournalProgress?>(nil)
        let progress = JournalProgress { report in
            reports.withLock { $0.append(report) }
            // The first batch is written: Ctrl-C now.
            if report.phase == "importing" { _ = holder.withLock { $0 }?.interrupt() }
        }
        holder.withLock { $0 = progress }
        let journal = JournalDirectory(dataDirectory: directory.path("data"))
        let imported = try journal.importActions(actions, progress: progress)
        #expect(imported.interrupted)
        #expect(imported.count == JournalDirectory.importBatch && imported.offered == count)
        #expect(imported.description.hasPrefix("interrupted: imported the first \(JournalDirectory.importBatch) of \(count) actions"), "\(imported)")
        var kept: [BusAction] = []
        try journal.forEachAction { kept.append($0); return true }
        #expect(kept.map(\.payload) == actions.prefix(JournalDirectory.importBatch).map(\.payload))
        #expect(try journal.verify().actions == JournalDirectory.importBatch)
        #expect(reports.withLock { $0 }.filter { $0.phase == "importing" }.map(\.done) == [JournalDirectory.importBatch])
    }

    /// Verify reports the bytes it has read, rising to the journal's size.
    @Test func verifyReportsBytesRead() throws {
        let directory = try TemporaryDirectory()
        let journal = JournalDirectory(dataDirectory: directory.path("data"))
        _ = try journal.importActions((1...5000).map { journaled($0, payload: .integer(Int64($0))) })
        let reports = Mutex<[JournalProgress.Report]>([])
        let verified = try journal.verify(progress: JournalProgress { report in reports.withLock { $0.append(report) } })
        let seen = reports.withLock { $0 }
        #expect(!seen.isEmpty && seen.allSatisfy { $0.phase == "verifying" && $0.isBytes && $0.done <= $0.total })
        #expect(seen.map(\.done) == seen.map(\.done).sorted())
        #expect(seen.last.map { $0.total == verified.bytes } == true, "\(String(describing: seen.last)) vs \(verified.bytes)")
    }
}
