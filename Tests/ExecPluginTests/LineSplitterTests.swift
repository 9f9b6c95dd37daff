import Testing

@testable import ExecPlugin

/// The line splitter, fed the same stream in chunks of every size.
struct LineSplitterTests {
    private func split(_ text: String, chunkSize: Int, maximumLength: Int = 8, excerptLength: Int = 3) -> [LineSplitter.Piece] {
        var splitter = LineSplitter(maximumLength: maximumLength, excerptLength: excerptLength)
        var pieces: [LineSplitter.Piece] = []
        let bytes = Array(text.utf8)
        var start = 0
        while start < bytes.count {
            let end = min(start + chunkSize, bytes.count)
            splitter.append(bytes[start..<end], into: &pieces)
            start = end
        }
        splitter.finish(into: &pieces)
        return pieces
    }

    private func line(_ text: String) -> LineSplitter.Piece {
        .line(Array(text.utf8))
    }

    /// Lines come out whole whatever the chunking, with `\r\n` endings and empty lines.
    @Test(arguments: [1, 2, 3, 7, 100])
    func splitsLines(chunkSize: Int) {
        #expect(split("one\ntwo\r\n\nthree\n", chunkSize: chunkSize) == [line("one"), line("two"), line(""), line("three")])
    }

    /// A last line without a newline is still a line at the end of the stream.
    @Test(arguments: [1, 4, 100])
    func keepsUnterminatedLastLine(chunkSize: Int) {
        #expect(split("a\nlast", chunkSize: chunkSize) == [line("a"), line("last")])
    }

    /// An over-long line becomes an excerpt with its length, and the next line is intact.
    @Test(arguments: [1, 3, 5, 100])
    func reportsOverlongLine(chunkSize: Int) {
        #expect(
            split("ok\nabcdefghijkl\nnext\n", chunkSize: chunkSize)
                == [line("ok"), .overlong(excerpt: Array("abc".utf8), length: 12), line("next")]
        )
    }

    /// An over-long line cut off by the end of the stream is still reported.
    @Test(arguments: [2, 100])
    func reportsOverlongLineAtEnd(chunkSize: Int) {
        #expect(split("abcdefghij", chunkSize: chunkSize) == [.overlong(excerpt: Array("abc".utf8), length: 10)])
    }

    /// A line exactly at the limit is kept, also with a `\r` before its newline.
    @Test(arguments: ["12345678\n", "12345678\r\n"])
    func keepsLineAtLimit(text: String) {
        #expect(split(text, chunkSize: 2) == [line("12345678")])
    }

    /// Memory stays bounded: nothing of an over-long line is held beyond the limit.
    @Test func holdsAtMostOneLine() {
        var splitter = LineSplitter(maximumLength: 16)
        var pieces: [LineSplitter.Piece] = []
        for _ in 0..<1000 {
            splitter.append(ArraySlice(repeating: UInt8(ascii: "x"), count: 1000), into: &pieces)
            #expect(splitter.bufferedByteCount <= 17)
        }
        splitter.append([UInt8(ascii: "\n")], into: &pieces)
        #expect(pieces == [.overlong(excerpt: Array(repeating: UInt8(ascii: "x"), count: 200), length: 1_000_000)])
    }
}
