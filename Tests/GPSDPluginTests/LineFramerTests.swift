@testable import GPSDPlugin
import Testing

/// Splitting a byte stream into lines with bounded memory.
struct LineFramerTests {
    private func frame(_ chunks: [String], limit: Int = 16) -> (outputs: [LineFramer.Output], pending: Int) {
        var framer = LineFramer(maximumLineLength: limit)
        var outputs: [LineFramer.Output] = []
        for chunk in chunks { framer.append(Array(chunk.utf8)) { outputs.append($0) } }
        return (outputs, framer.pendingByteCount)
    }

    private func line(_ text: String) -> LineFramer.Output { .line(Array(text.utf8)) }

    /// Lines split across chunks in every way come out whole, with `\r\n` and `\n` endings.
    @Test(arguments: [
        ["ab\r\ncd\n"],
        ["a", "b\r", "\nc", "d\n"],
        ["ab\r\n", "cd", "\n"],
        ["a", "b", "\r", "\n", "c", "d", "\n"],
    ])
    func linesAcrossChunks(chunks: [String]) {
        let result = frame(chunks)
        #expect(result.outputs == [line("ab"), line("cd")])
        #expect(result.pending == 0)
    }

    /// Empty lines are delivered as empty lines; an unfinished line stays pending.
    @Test func emptyAndUnfinishedLines() {
        let result = frame(["\n\r\nxy"])
        #expect(result.outputs == [line(""), line("")])
        #expect(result.pending == 2)
    }

    /// A line over the limit is skipped with its length, and the next line is intact.
    @Test(arguments: [
        ["0123456789abcdefXYZ\nok\n"],
        ["0123456789", "abcdefXYZ", "\n", "ok\n"],
        ["0123456789abcdefXYZ\r\nok\r\n"],
    ])
    func overlongLineIsDiscarded(chunks: [String]) {
        let result = frame(chunks)
        #expect(result.outputs == [.discarded(byteCount: 19), line("ok")])
    }

    /// A line of exactly the limit is kept, also when its `\r` arrives in a later chunk.
    @Test(arguments: [["0123456789abcdef\r\n"], ["0123456789abcdef", "\r", "\n"], ["0123456789abcdef\n"]])
    func lineAtTheLimitIsKept(chunks: [String]) {
        #expect(frame(chunks).outputs == [line("0123456789abcdef")])
    }

    /// A peer that never sends a newline costs at most the limit in memory.
    @Test func memoryStaysBounded() {
        var framer = LineFramer(maximumLineLength: 1024)
        let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 4096)
        var outputs: [LineFramer.Output] = []
        for _ in 0..<1000 {
            framer.append(chunk) { outputs.append($0) }
            #expect(framer.pendingByteCount <= 1025)
        }
        framer.append(Array("\nnext\n".utf8)) { outputs.append($0) }
        #expect(outputs == [.discarded(byteCount: 4_096_000), line("next")])
    }
}
