/// Strings: escapes, surrogate pairs and strict UTF-8 validation.
extension JSONParser {
    /// Parses a string starting at its opening quote.
    mutating func parseString() throws(JSONParseError) -> String {
        let quote = index
        index += 1
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == ASCII.quote {
                // The bytes were validated above, so this is the string `String(decoding:)` would
                // make; copying them into the string's storage skips that initializer's repairing
                // path and second ASCII scan, half of its cost for a short key (callgrind).
                let run = UnsafeBufferPointer(rebasing: bytes[start..<index])
                let string = String(unsafeUninitializedCapacity: run.count) { storage in
                    storage.initialize(from: run).index
                }
                index += 1
                return string
            }
            if byte == ASCII.backslash || byte < 0x20 { break }
            if byte < 0x80 {
                index += 1
            } else {
                try skipUTF8Sequence()
            }
        }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(index - start + 16)
        decoded.append(contentsOf: bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case ASCII.quote:
                index += 1
                return String(decoding: decoded, as: UTF8.self)
            case ASCII.backslash:
                try parseEscape(into: &decoded)
            case ASCII.newline, ASCII.carriageReturn:
                throw error("unterminated string (a line break inside a string must be written as \\n)")
            case 0..<0x20:
                throw error("unescaped control character \(Self.scalarName(UInt32(byte))) in a string")
            case 0x20..<0x80:
                decoded.append(byte)
                index += 1
            default:
                let sequenceStart = index
                try skipUTF8Sequence()
                decoded.append(contentsOf: bytes[sequenceStart..<index])
            }
        }
        throw error(at: quote, "unterminated string (no closing '\"' before the end of the input)")
    }

    mutating func parseEscape(into decoded: inout [UInt8]) throws(JSONParseError) {
        let backslash = index
        index += 1
        guard index < bytes.count else {
            throw error("unterminated escape sequence at the end of the input")
        }
        let escaped = bytes[index]
        index += 1
        switch escaped {
        case ASCII.quote, ASCII.backslash, ASCII.slash: decoded.append(escaped)
        case UInt8(ascii: "b"): decoded.append(0x08)
        case UInt8(ascii: "f"): decoded.append(0x0C)
        case UInt8(ascii: "n"): decoded.append(ASCII.newline)
        case UInt8(ascii: "r"): decoded.append(ASCII.carriageReturn)
        case UInt8(ascii: "t"): decoded.append(0x09)
        case UInt8(ascii: "u"):
            let scalar = try parseUnicodeEscape(startingAt: backslash)
            UTF8.encode(scalar) { decoded.append($0) }
        default:
            index = backslash
            throw error("invalid escape sequence in a string, found '\\\(Self.describe(escaped))'; "
                + "allowed: \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX")
        }
    }

    /// Parses the hex digits of `\uXXXX` (the `\u` already consumed), pairing surrogates.
    mutating func parseUnicodeEscape(startingAt backslash: Int) throws(JSONParseError) -> Unicode.Scalar {
        let unit = try parseHexQuad()
        switch unit {
        case 0xD800...0xDBFF:
            let lowStart = index
            guard index + 1 < bytes.count, bytes[index] == ASCII.backslash, bytes[index + 1] == UInt8(ascii: "u") else {
                throw error(at: backslash, "unpaired surrogate \\u\(Self.hex(unit)) in a string "
                    + "(a high surrogate must be followed by a low surrogate \\uDC00-\\uDFFF)")
            }
            index += 2
            let low = try parseHexQuad()
            guard (0xDC00...0xDFFF).contains(low) else {
                throw error(at: lowStart, "expected a low surrogate \\uDC00-\\uDFFF after \\u\(Self.hex(unit)), "
                    + "found \\u\(Self.hex(low))")
            }
            let value = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
            return Unicode.Scalar(value).unsafelyUnwrapped
        case 0xDC00...0xDFFF:
            throw error(at: backslash, "unpaired surrogate \\u\(Self.hex(unit)) in a string "
                + "(a low surrogate must follow a high surrogate \\uD800-\\uDBFF)")
        default:
            return Unicode.Scalar(unit).unsafelyUnwrapped
        }
    }

    mutating func parseHexQuad() throws(JSONParseError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count, let digit = Self.hexValue(bytes[index]) else {
                throw error("expected 4 hexadecimal digits after \\u, found \(found())")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    /// Steps over one well-formed UTF-8 sequence (RFC 3629: no overlongs, no surrogates).
    mutating func skipUTF8Sequence() throws(JSONParseError) {
        switch UTF8Sequence.read(at: index, in: bytes) {
        case .valid(let length):
            index += length
        case .invalidLead:
            throw error("invalid UTF-8 byte \(Self.byteName(bytes[index]))")
        case .invalidSequence:
            throw error("invalid UTF-8 sequence starting with byte \(Self.byteName(bytes[index]))")
        }
    }
}
