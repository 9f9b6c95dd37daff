import Glibc

/// A cursor over a JSON text's UTF-8 bytes for a reader that expects one shape — a journal
/// line as the writer wrote it, a JetStream acknowledgement — and wants its few values
/// without building a ``JSON`` tree.
///
/// Each step either takes what it expects and moves on, or answers `nil`/`false` and leaves
/// the cursor where it was, so the caller can fall back to the full parser (``JSON/init(parsing:)``)
/// whenever the bytes are not in the expected shape. Strings are read by the same code as the
/// full parser's (escapes, surrogate pairs, strict UTF-8), so both readings agree.
package struct JSONReader {
    private var parser: JSONParser

    /// A reader at the first byte of `bytes`, which must outlive it.
    package init(_ bytes: UnsafeBufferPointer<UInt8>) {
        parser = JSONParser(bytes: bytes, maximumDepth: JSONLimits.maximumDepth)
    }

    /// The bytes read.
    package var bytes: UnsafeBufferPointer<UInt8> { parser.bytes }

    /// The offset of the next byte to read.
    package var index: Int { parser.index }

    /// Whether every byte has been read.
    package var atEnd: Bool { parser.index == parser.bytes.count }

    /// The next byte, without taking it; `nil` at the end.
    package var next: UInt8? { parser.peek() }

    /// Skips JSON whitespace: space, tab, carriage return and line feed.
    package mutating func skipWhitespace() {
        parser.skipWhitespace()
    }

    /// Skips spaces (U+0020) only, as written after `,` and `:` by writers that pad them.
    package mutating func skipSpaces() {
        while parser.index < parser.bytes.count, parser.bytes[parser.index] == ASCII.space { parser.index += 1 }
    }

    /// Takes `text` if the bytes continue with exactly it; `false`, not moving, otherwise.
    package mutating func take(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard parser.bytes.count - parser.index >= count else { return false }
        for offset in 0..<count where parser.bytes[parser.index + offset] != text.utf8Start[offset] { return false }
        parser.index += count
        return true
    }

    /// Takes a string whose content is exactly the bytes of `text`, written without escapes
    /// (`text` holds no `"`, `\\` or control character); `false`, not moving, otherwise.
    package mutating func take(string text: String) -> Bool {
        let bytes = parser.bytes
        let start = parser.index
        let matched = text.utf8.withContiguousStorageIfAvailable { content in
            let end = start + content.count + 1
            guard end < bytes.count, bytes[start] == ASCII.quote, bytes[end] == ASCII.quote else { return false }
            return content.isEmpty || memcmp(bytes.baseAddress! + start + 1, content.baseAddress!, content.count) == 0
        }
        guard matched == true else { return false }
        parser.index = start + text.utf8.count + 2
        return true
    }

    /// Takes a whole value of any kind, checked and built as the full parser builds it, with
    /// containers counted against the depth limit from the objects entered so far; `nil`, not
    /// moving, when no valid value starts here.
    package mutating func value() -> JSON? {
        let (start, depth) = (parser.index, parser.depth)
        do throws(JSONParseError) {
            return try parser.parseValue()
        } catch {
            (parser.index, parser.depth) = (start, depth)
            return nil
        }
    }

    /// Takes `{` and enters the object, counted against the depth limit as the full parser
    /// counts it; `false`, not moving, when no object starts here or it would nest too deep.
    package mutating func enterObject() -> Bool {
        guard parser.peek() == ASCII.openBrace, parser.depth < parser.maximumDepth else { return false }
        parser.depth += 1
        parser.index += 1
        parser.skipWhitespace()
        return true
    }

    /// Takes the member name `"name"`, written exactly so (no escapes), and the `:` after it,
    /// with the whitespace around them; `false`, not moving, for any other name.
    package mutating func member(_ name: StaticString) -> Bool {
        let start = parser.index
        guard parser.peek() == ASCII.quote else { return false }
        parser.index += 1
        guard take(name), parser.peek() == ASCII.quote else {
            parser.index = start
            return false
        }
        parser.index += 1
        parser.skipWhitespace()
        guard parser.peek() == ASCII.colon else {
            parser.index = start
            return false
        }
        parser.index += 1
        parser.skipWhitespace()
        return true
    }

    /// After a member's value: takes `,` and answers `true` when another member follows, or
    /// takes `}` and leaves the object, answering `false`. `nil`, not moving, on anything else,
    /// including a trailing comma.
    package mutating func nextMember() -> Bool? {
        let start = parser.index
        parser.skipWhitespace()
        switch parser.peek() {
        case ASCII.comma:
            parser.index += 1
            parser.skipWhitespace()
            guard parser.peek() == ASCII.quote else { break }
            return true
        case ASCII.closeBrace:
            parser.index += 1
            parser.depth -= 1
            return false
        default:
            break
        }
        parser.index = start
        return nil
    }

    /// Takes a string at its opening quote, escapes decoded; `nil`, not moving, when there is
    /// no string here or it is malformed (unterminated, a bad escape, invalid UTF-8, an
    /// unescaped control character).
    package mutating func string() -> String? {
        guard parser.peek() == ASCII.quote else { return nil }
        let start = parser.index
        do throws(JSONParseError) {
            return try parser.parseString()
        } catch {
            parser.index = start
            return nil
        }
    }

    /// Takes a string written without escapes and returns its content's byte range; `nil`,
    /// not moving, when there is no string here, it holds a `\\` or a control character, or it
    /// is unterminated. Bytes at or above 0x80 are taken as they are, unchecked.
    package mutating func plainString() -> Range<Int>? {
        guard parser.peek() == ASCII.quote else { return nil }
        let start = parser.index + 1
        var end = start
        while end < parser.bytes.count, parser.bytes[end] != ASCII.quote {
            guard parser.bytes[end] != ASCII.backslash, parser.bytes[end] >= 0x20 else { return nil }
            end += 1
        }
        guard end < parser.bytes.count else { return nil }
        parser.index = end + 1
        return start..<end
    }

    /// Takes an unsigned decimal integer of at most `maximumDigits` digits (19 fit any
    /// `UInt64`); `nil`, not moving, when no digit is here. Digits past the limit are left
    /// for the next step, which then fails on them.
    package mutating func unsignedInteger(maximumDigits: Int = 19) -> UInt64? {
        var value: UInt64 = 0
        let start = parser.index
        while parser.index < parser.bytes.count, parser.index - start < min(maximumDigits, 19) {
            let byte = parser.bytes[parser.index]
            guard byte >= ASCII.zero, byte <= ASCII.nine else { break }
            value = value * 10 + UInt64(byte - ASCII.zero)
            parser.index += 1
        }
        return parser.index > start ? value : nil
    }

    /// Moves past one value and returns its byte range, without checking or building it:
    /// brackets are matched and strings skipped with their escapes, so commas and brackets
    /// inside strings do not count. A scalar (number, `true`, `null`) runs to the next `,`
    /// or closing bracket. `nil`, not moving, when no value starts here or it does not end
    /// within the bytes.
    package mutating func skipValue() -> Range<Int>? {
        let bytes = parser.bytes
        let start = parser.index
        var index = start
        var depth = 0
        while index < bytes.count {
            switch bytes[index] {
            case ASCII.quote:
                index += 1
                while index < bytes.count, bytes[index] != ASCII.quote {
                    index += bytes[index] == ASCII.backslash ? 2 : 1
                }
                guard index < bytes.count else { return nil }
                index += 1
            case ASCII.openBrace, ASCII.openBracket:
                depth += 1
                index += 1
            case ASCII.closeBrace, ASCII.closeBracket:
                guard depth > 0 else { return finish(start, index) }
                depth -= 1
                index += 1
            case ASCII.comma where depth == 0:
                return finish(start, index)
            default:
                index += 1
            }
            if depth == 0, bytes[start] == ASCII.quote || bytes[start] == ASCII.openBrace || bytes[start] == ASCII.openBracket {
                return finish(start, index)
            }
        }
        return depth == 0 ? finish(start, index) : nil
    }

    /// The range `start..<end` taken, or `nil` when it is empty.
    private mutating func finish(_ start: Int, _ end: Int) -> Range<Int>? {
        guard end > start else { return nil }
        parser.index = end
        return start..<end
    }
}
