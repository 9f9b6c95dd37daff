import Foundation
@testable import LoggerPlugin
import Testing

/// The logger's writer takes a batch of lines under one lock: in order, and beyond its limit
/// dropped and counted exactly as lines written one by one are.
struct LineWriterTests {
    @Test(arguments: [(10, 4), (3, 8), (1, 1)])
    func batchesAreQueuedInOrderUpToTheLimit(count: Int, limit: Int) async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-linewriter-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try LineWriter(destination: .file(path), maxPendingLines: limit)
        let queued = writer.write(count: count) { index, bytes in bytes.append(contentsOf: "line \(index)".utf8) }
        #expect(queued == min(count, limit))
        #expect(writer.droppedCount == count - queued)
        await writer.finish()
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text == (0..<queued).map { "line \($0)\n" }.joined())
    }
}
