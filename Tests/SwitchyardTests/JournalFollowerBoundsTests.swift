import Foundation
import Testing
@testable import Switchyard
@testable import SwitchyardBus

/// A follower's position can come from outside (an event stream's `Last-Event-ID`, a cursor
/// file): the largest sequence number reads nothing more instead of overflowing.
struct JournalFollowerBoundsTests {
    /// A journal of actions 1-3.
    private func journal() throws -> JournalTestDirectory {
        let directory = try JournalTestDirectory()
        try FileManager.default.createDirectory(atPath: directory.journal, withIntermediateDirectories: true)
        try segmentText((1...3).map { journaled($0) }).write(toFile: directory.journal + "/segment-00000000000000000001.jsonl", atomically: false, encoding: .utf8)
        return directory
    }

    /// After the largest id there is nothing, and saying so is not an error.
    @Test func positionAtTheLargestIDReadsNothing() throws {
        let directory = try journal()
        var follower = JournalFollower(dataDirectory: directory.path, after: .max)
        let batch = try follower.read(limit: 10)
        #expect(batch.actions.isEmpty && batch.reachedEnd && batch.missing == nil)
        #expect(follower.position == .max)
        let journaledBatch = try follower.readJournaled(limit: 10)
        #expect(journaledBatch.actions.isEmpty && journaledBatch.reachedEnd)
    }
}
