/// Why and where JSON text was rejected by ``JSON/init(parsing:)-(String)``.
///
/// The position points at the first byte that cannot continue a valid document (the end of the
/// input for a truncated one), so an editor can jump straight to it.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The 1-based line of the offending position; lines end at `\n`.
    public var line: Int
    /// The 1-based column of the offending position, counted in Unicode scalars.
    public var column: Int
    /// The 0-based byte offset of the offending position in the UTF-8 input.
    public var offset: Int
    /// What was wrong, such as `expected ',' or '}' after an object member, found '"'`.
    public var reason: String

    /// Creates an error at an explicit position.
    public init(line: Int, column: Int, offset: Int, reason: String) {
        self.line = line
        self.column = column
        self.offset = offset
        self.reason = reason
    }

    /// `line 3, column 14: expected ',' or '}' after an object member, found '"'`.
    public var description: String {
        "line \(line), column \(column): \(reason)"
    }

    /// An error at byte `offset` of `bytes`, with the line and column worked out from the text.
    ///
    /// Computed only when parsing fails, so the parser never tracks lines on the fast path.
    static func at(_ offset: Int, in bytes: UnsafeBufferPointer<UInt8>, reason: String) -> JSONParseError {
        var line = 1
        var column = 1
        for byte in bytes[..<min(offset, bytes.count)] {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return JSONParseError(line: line, column: column, offset: offset, reason: reason)
    }
}
