/// Why a document is not well-formed XML, and where: `line 3, column 24: <reason>`.
struct XMLError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The line of the offending character, from 1.
    let line: Int
    /// Its column on that line, from 1, in characters (not bytes).
    let column: Int
    /// A short sentence: what is wrong.
    let reason: String

    var description: String { "line \(line), column \(column): \(reason)" }
}

/// Turns byte offsets into lines and columns, counting as editors do: a line ends at LF, CR LF
/// or a lone CR, and a column counts characters (UTF-8 continuation bytes are not counted).
///
/// Offsets asked for in increasing order cost one pass over the document in all; an earlier
/// offset (an error pointing back at a start tag) starts again from the beginning.
struct XMLLineCounter {
    private let bytes: [UInt8]
    private let start: Int
    private var offset: Int
    private var line = 1
    private var column = 1

    /// Counts lines in `bytes` from `start` (after a byte-order mark), which is line 1, column 1.
    init(_ bytes: [UInt8], start: Int) {
        self.bytes = bytes
        self.start = start
        offset = start
    }

    /// The line and column of the byte at `target` (or of the end, for `bytes.count`).
    mutating func position(of target: Int) -> (line: Int, column: Int) {
        if target < offset {
            offset = start
            line = 1
            column = 1
        }
        while offset < target {
            let byte = bytes[offset]
            offset += 1
            if byte == 0x0A || (byte == 0x0D && (offset == bytes.count || bytes[offset] != 0x0A)) {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80, byte != 0x0D {
                column += 1
            }
        }
        return (line, column)
    }
}
