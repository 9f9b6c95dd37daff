import SwitchyardBus

/// The byte-level rules of XML 1.0 the tokenizer needs: which characters a document may hold,
/// which start and continue a name, and what counts as white space.
enum XMLCharacters {
    /// The first byte in `bytes[start...]` that is not well-formed UTF-8 or is a character XML
    /// forbids (C0 controls other than tab, LF and CR; U+FFFE and U+FFFF), with the reason;
    /// `nil` when there is none. Surrogates and overlong forms are not well-formed UTF-8.
    static func firstInvalid(in bytes: [UInt8], from start: Int) -> (offset: Int, reason: String)? {
        bytes.withUnsafeBufferPointer { buffer in
            var index = start
            while index < buffer.count {
                let lead = buffer[index]
                if lead < 0x80 {
                    if lead < 0x20, lead != 0x09, lead != 0x0A, lead != 0x0D {
                        return (index, "a character XML does not allow (U+\(hex(lead, digits: 4)))")
                    }
                    index += 1
                    continue
                }
                guard case .valid(let length) = UTF8Sequence.read(at: index, in: buffer) else {
                    return (index, notUTF8(lead))
                }
                if lead == 0xEF, buffer[index + 1] == 0xBF, buffer[index + 2] >= 0xBE {
                    return (index, "a character XML does not allow (U+FFF\(buffer[index + 2] == 0xBE ? "E" : "F"))")
                }
                index += length
            }
            return nil
        }
    }

    private static func notUTF8(_ byte: UInt8) -> String {
        "the document is not UTF-8 (byte 0x\(hex(byte, digits: 2)))"
    }

    /// `value` in upper-case hexadecimal, padded with zeros to `digits`.
    static func hex<Value: BinaryInteger>(_ value: Value, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    /// Whether `scalar` may appear in a document (XML 1.0 `Char`), as a character reference
    /// must name one.
    static func isAllowed(_ scalar: UInt32) -> Bool {
        switch scalar {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return true
        default: return false
        }
    }

    /// Space, tab, LF or CR.
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// A byte that may start a name: an ASCII letter, `_`, `:`, or any non-ASCII character
    /// (the document is valid UTF-8 by then; names beyond ASCII are tolerated, not checked
    /// against XML's tables, since GPX uses none).
    static func isNameStart(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A || byte == 0x5F || byte == 0x3A || byte >= 0x80
    }

    /// A byte that may continue a name: a name start, a digit, `-` or `.`.
    static func isNameCharacter(_ byte: UInt8) -> Bool {
        isNameStart(byte) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D || byte == 0x2E
    }
}
