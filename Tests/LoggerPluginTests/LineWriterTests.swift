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

    /// Lines queued together for a regular file go out in one `write`, not one per
    /// pipe-sized chunk: 1,000 lines of 100 bytes (25 chunks of 4 KiB before).
    @Test func aFilesQueuedLinesGoOutInOneWrite() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-linewriter-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try LineWriter(destination: .file(path), maxPendingLines: 4096)
        let line = [UInt8](repeating: UInt8(ascii: "x"), count: 99)
        #expect(writer.write(count: 1000) { _, bytes in bytes.append(contentsOf: line) } == 1000)
        await writer.finish()
        #expect(writer.writeCount == 1)
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
        #expect(size == 100_000)
    }

    /// To a pipe, lines still go out in whole-line chunks of at most `PIPE_BUF` bytes, each an
    /// atomic write that never interleaves with another writer's.
    @Test func aPipesLinesGoOutInAtomicChunks() async throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let writer = try LineWriter(destination: .file("/dev/fd/\(ends[1])"), maxPendingLines: 4096)
        close(ends[1])
        let readEnd = ends[0]
        let reader = Task.detached { FileHandle(fileDescriptor: readEnd, closeOnDealloc: false).readDataToEndOfFile() }
        let line = [UInt8](repeating: UInt8(ascii: "x"), count: 99)
        #expect(writer.write(count: 1000) { _, bytes in bytes.append(contentsOf: line) } == 1000)
        await writer.finish()
        #expect(writer.writeCount == 25)
        #expect(await reader.value.count == 100_000)
    }
}
