/// A strict RFC 8259 parser over UTF-8 bytes.
///
/// It works on a borrowed buffer and never copies the input; strings without escapes are made
/// straight from the buffer. Recursion is bounded by ``maximumDepth`` so hostile input cannot
/// exhaust the stack. Duplicate object keys are rejected: in a config file the second `"port"`
/// would otherwise silently win.
struct JSONParser {
    /// The deepest nesting of arrays and objects accepted.
    static let maximumDepth = 512

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var depth = 0

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Parses `bytes` as exactly one JSON value surrounded by optional whitespace.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONParseError) -> JSON {
        var parser = JSONParser(bytes: bytes)
        parser.skipWhitespace()
        let value = try parser.parseValue()
        parser.skipWhitespace()
        guard parser.index == bytes.count else {
            throw parser.error("expected the end of the input after the value, found \(parser.found())")
        }
        return value
    }

    /// ``parse(_:)`` as a `Result`, for the `rethrows` buffer accessors that erase typed errors.
    static func result(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<JSON, JSONParseError> {
        do throws(JSONParseError) {
            return .success(try parse(bytes))
        } catch {
            return .failure(error)
        }
    }

    // MARK: Values

    private mutating func parseValue() throws(JSONParseError) -> JSON {
        guard index < bytes.count else { throw error("expected a value, found the end of the input") }
        switch bytes[index] {
        case ASCII.openBrace:
            return try parseObject()
        case ASCII.openBracket:
            return try parseArray()
        case ASCII.quote:
            return .string(try parseString())
        case ASCII.minus, ASCII.zero...ASCII.nine:
            return try parseNumber()
        case UInt8(ascii: "t"):
            try parseLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try parseLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try parseLiteral("null")
            return .null
        default:
            throw error("expected a value, found \(found())")
        }
    }

    private mutating func parseLiteral(_ literal: StaticString) throws(JSONParseError) {
        for expected in UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount) {
            guard index < bytes.count, bytes[index] == expected else {
                throw error("expected '\(literal)', found \(found())")
            }
            index += 1
        }
    }

    private mutating func enterContainer() throws(JSONParseError) {
        depth += 1
        guard depth <= Self.maximumDepth else {
            throw error("arrays and objects nested deeper than \(Self.maximumDepth) levels")
        }
    }

    private mutating func parseObject() throws(JSONParseError) -> JSON {
        try enterContainer()
        index += 1
        var members: [String: JSON] = [:]
        skipWhitespace()
        if peek() == ASCII.closeBrace {
            index += 1
            depth -= 1
            return .object(members)
        }
        while true {
            guard peek() == ASCII.quote else {
                throw error("expected a string key for an object member, found \(found())")
            }
            let keyStart = index
            let key = try parseString()
            skipWhitespace()
            guard peek() == ASCII.colon else {
                throw error("expected ':' after an object key, found \(found())")
            }
            index += 1
            skipWhitespace()
            let value = try parseValue()
            if members.updateValue(value, forKey: key) != nil {
                throw error(at: keyStart, "duplicate key \(JSON.string(key).serialized()) in an object")
            }
            skipWhitespace()
            switch peek() {
            case ASCII.comma:
                index += 1
                skipWhitespace()
                if peek() == ASCII.closeBrace {
                    throw error("expected an object member after ',', found '}' (trailing commas are not allowed)")
                }
            case ASCII.closeBrace:
                index += 1
                depth -= 1
                return .object(members)
            default:
                throw error("expected ',' or '}' after an object member, found \(found())")
            }
        }
    }

    private mutating func parseArray() throws(JSONParseError) -> JSON {
        try enterContainer()
        index += 1
        var elements: [JSON] = []
        skipWhitespace()
        if peek() == ASCII.closeBracket {
            index += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            elements.append(try parseValue())
            skipWhitespace()
            switch peek() {
            case ASCII.comma:
                index += 1
                skipWhitespace()
                if peek() == ASCII.closeBracket {
                    throw error("expected a value after ',', found ']' (trailing commas are not allowed)")
                }
            case ASCII.closeBracket:
                index += 1
                depth -= 1
                return .array(elements)
            default:
                throw error("expected ',' or ']' after an array element, found \(found())")
            }
        }
    }

    // MARK: Strings

    /// Parses a string starting at its opening quote.
    private mutating func parseString() throws(JSONParseError) -> String {
        let quote = index
        index += 1
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == ASCII.quote {
                let string = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
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

    private mutating func parseEscape(into decoded: inout [UInt8]) throws(JSONParseError) {
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
    private mutating func parseUnicodeEscape(startingAt backslash: Int) throws(JSONParseError) -> Unicode.Scalar {
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

    private mutating func parseHexQuad() throws(JSONParseError) -> UInt32 {
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
    private mutating func skipUTF8Sequence() throws(JSONParseError) {
        let lead = bytes[index]
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; secondRange = 0x80...0x9F
        case 0xF0: length = 4; secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; secondRange = 0x80...0x8F
        default: throw error("invalid UTF-8 byte \(Self.byteName(lead))")
        }
        guard index + length <= bytes.count, secondRange.contains(bytes[index + 1]) else {
            throw error("invalid UTF-8 sequence starting with byte \(Self.byteName(lead))")
        }
        var continuation = index + 2
        while continuation < index + length {
            guard bytes[continuation] & 0xC0 == 0x80 else {
                throw error("invalid UTF-8 sequence starting with byte \(Self.byteName(lead))")
            }
            continuation += 1
        }
        index += length
    }

    // MARK: Numbers

    private mutating func parseNumber() throws(JSONParseError) -> JSON {
        let start = index
        let negative = bytes[index] == ASCII.minus
        if negative { index += 1 }
        guard index < bytes.count, Self.isDigit(bytes[index]) else {
            throw error("expected a digit after '-', found \(found())")
        }
        var significand: UInt64 = 0
        var significandOverflowed = false
        var fractionDigits = 0

        func accumulate(_ byte: UInt8) {
            let (shifted, overflow1) = significand.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = shifted.addingReportingOverflow(UInt64(byte &- ASCII.zero))
            if overflow1 || overflow2 { significandOverflowed = true } else { significand = sum }
        }

        if bytes[index] == ASCII.zero {
            index += 1
            if index < bytes.count, Self.isDigit(bytes[index]) {
                throw error(at: start, "a number must not start with a leading zero")
            }
        } else {
            while index < bytes.count, Self.isDigit(bytes[index]) {
                accumulate(bytes[index])
                index += 1
            }
        }
        var isInteger = true
        if index < bytes.count, bytes[index] == ASCII.period {
            isInteger = false
            index += 1
            guard index < bytes.count, Self.isDigit(bytes[index]) else {
                throw error("expected a digit after the decimal point, found \(found())")
            }
            while index < bytes.count, Self.isDigit(bytes[index]) {
                accumulate(bytes[index])
                if !significandOverflowed { fractionDigits += 1 }
                index += 1
            }
        }
        var exponent = 0
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            index += 1
            var exponentNegative = false
            if index < bytes.count, bytes[index] == ASCII.minus || bytes[index] == ASCII.plus {
                exponentNegative = bytes[index] == ASCII.minus
                index += 1
            }
            guard index < bytes.count, Self.isDigit(bytes[index]) else {
                throw error("expected a digit in the exponent, found \(found())")
            }
            while index < bytes.count, Self.isDigit(bytes[index]) {
                exponent = min(exponent * 10 + Int(bytes[index] &- ASCII.zero), 1_000_000)
                index += 1
            }
            if exponentNegative { exponent = -exponent }
        }
        if isInteger, !significandOverflowed {
            if negative, significand <= UInt64(Int64.max) + 1 {
                return .integer(significand == UInt64(Int64.max) + 1 ? .min : -Int64(significand))
            }
            if !negative, significand <= UInt64(Int64.max) {
                return .integer(Int64(significand))
            }
        }
        if !significandOverflowed, let value = Self.exactDouble(significand, exponent: exponent - fractionDigits) {
            return .number(negative ? -value : value)
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw error(at: start, "number \(text) is too large for a 64-bit floating-point value")
        }
        return .number(value)
    }

    /// The correctly rounded value when both the significand and the power of ten are exact
    /// doubles (Clinger's fast path), which covers coordinates and most measurements.
    private static func exactDouble(_ significand: UInt64, exponent: Int) -> Double? {
        guard significand <= 1 << 53, (-22...22).contains(exponent) else { return nil }
        let value = Double(significand)
        return exponent < 0 ? value / powersOfTen[-exponent] : value * powersOfTen[exponent]
    }

    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    // MARK: Scanning helpers

    private func peek() -> UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case ASCII.space, ASCII.tab, ASCII.newline, ASCII.carriageReturn: index += 1
            default: return
            }
        }
    }

    private func error(_ reason: String) -> JSONParseError {
        error(at: index, reason)
    }

    private func error(at offset: Int, _ reason: String) -> JSONParseError {
        JSONParseError.at(offset, in: bytes, reason: reason)
    }

    /// The text at the current position as written in a message: `'"'`, `'é'`, `U+0001`,
    /// `byte 0xFF` or `the end of the input`.
    private func found() -> String {
        guard index < bytes.count else { return "the end of the input" }
        let byte = bytes[index]
        switch byte {
        case 0x21..<0x7F: return "'\(Self.describe(byte))'"
        case 0..<0x21, 0x7F: return Self.scalarName(UInt32(byte))
        default:
            var iterator = bytes[index...].makeIterator()
            var decoder = UTF8()
            if case .scalarValue(let scalar) = decoder.decode(&iterator) {
                return "'\(Character(scalar))'"
            }
            return "byte \(Self.byteName(byte))"
        }
    }

    private static func describe(_ byte: UInt8) -> String {
        (0x21..<0x7F).contains(byte) ? String(UnicodeScalar(byte)) : scalarName(UInt32(byte))
    }

    private static func scalarName(_ value: UInt32) -> String {
        "U+" + hex(value)
    }

    private static func byteName(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return "0x" + (digits.count < 2 ? "0" + digits : digits)
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case ASCII.zero...ASCII.nine: return UInt32(byte - ASCII.zero)
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte &- ASCII.zero < 10
    }

}

/// The bytes the grammar is written in.
enum ASCII {
    static let tab: UInt8 = 0x09
    static let newline: UInt8 = 0x0A
    static let carriageReturn: UInt8 = 0x0D
    static let space: UInt8 = 0x20
    static let quote: UInt8 = 0x22
    static let plus: UInt8 = 0x2B
    static let comma: UInt8 = 0x2C
    static let minus: UInt8 = 0x2D
    static let period: UInt8 = 0x2E
    static let slash: UInt8 = 0x2F
    static let zero: UInt8 = 0x30
    static let nine: UInt8 = 0x39
    static let colon: UInt8 = 0x3A
    static let openBracket: UInt8 = 0x5B
    static let backslash: UInt8 = 0x5C
    static let closeBracket: UInt8 = 0x5D
    static let openBrace: UInt8 = 0x7B
    static let closeBrace: UInt8 = 0x7D
}
