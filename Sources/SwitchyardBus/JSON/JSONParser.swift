/// A strict RFC 8259 parser over UTF-8 bytes.
///
/// It works on a borrowed buffer and never copies the input; strings without escapes are made
/// straight from the buffer. Recursion is bounded by a maximum depth (``JSONLimits``) so hostile input cannot
/// exhaust the stack. A repeated object member name is refused or its last member kept, as
/// ``RepeatedMemberNames`` says; names are compared by their bytes.
struct JSONParser {
    let bytes: UnsafeBufferPointer<UInt8>
    /// The deepest nesting of arrays and objects accepted.
    let maximumDepth: Int
    /// What a repeated member name does; default ``RepeatedMemberNames/refuse``.
    let repeatedNames: RepeatedMemberNames
    var index = 0
    var depth = 0

    init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int, repeatedNames: RepeatedMemberNames = .refuse) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
        self.repeatedNames = repeatedNames
    }

    /// Parses `bytes` as exactly one JSON value surrounded by optional whitespace, with at most
    /// `maximumDepth` levels of nested arrays and objects.
    static func parse(
        _ bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int = JSONLimits.maximumDepth, repeatedNames: RepeatedMemberNames = .refuse
    ) throws(JSONParseError) -> JSON {
        var parser = JSONParser(bytes: bytes, maximumDepth: maximumDepth, repeatedNames: repeatedNames)
        parser.skipWhitespace()
        let value = try parser.parseValue()
        parser.skipWhitespace()
        guard parser.index == bytes.count else {
            throw parser.error("expected the end of the input after the value, found \(parser.found())")
        }
        return value
    }

    /// ``parse(_:)`` as a `Result`, for the `rethrows` buffer accessors that erase typed errors.
    static func result(
        _ bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int = JSONLimits.maximumDepth, repeatedNames: RepeatedMemberNames = .refuse
    ) -> Result<JSON, JSONParseError> {
        do throws(JSONParseError) {
            return .success(try parse(bytes, maximumDepth: maximumDepth, repeatedNames: repeatedNames))
        } catch {
            return .failure(error)
        }
    }

    // MARK: Values

    mutating func parseValue() throws(JSONParseError) -> JSON {
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

    mutating func parseLiteral(_ literal: StaticString) throws(JSONParseError) {
        for expected in UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount) {
            guard index < bytes.count, bytes[index] == expected else {
                throw error("expected '\(literal)', found \(found())")
            }
            index += 1
        }
    }

    mutating func enterContainer() throws(JSONParseError) {
        depth += 1
        guard depth <= maximumDepth else {
            throw error("arrays and objects nested deeper than \(maximumDepth) levels")
        }
    }

    /// The table every parsed object starts from (see ``parseObject()``); never mutated.
    private static let emptyMembers = [String: JSON](minimumCapacity: 8)

    mutating func parseObject() throws(JSONParseError) -> JSON {
        try enterContainer()
        index += 1
        skipWhitespace()
        if peek() == ASCII.closeBrace {
            index += 1
            depth -= 1
            return .object([:])
        }
        // Room for a typical object at once: growing one member at a time resized the table
        // (and hashed every key again) at the 2nd, 4th and 7th member. A copy of an empty
        // table with that room, not a new one: making one (`minimumCapacity`, `reserveCapacity`)
        // runs the standard library's unspecialized allocation, which looks up the storage's
        // generic metadata for every object parsed; the copy takes the metadata from the
        // original, and costs half the instructions (440 against 868 under callgrind).
        var members = Self.emptyMembers
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
            // One lookup for the common case; a repeat (rare) looks up the name it kept, which
            // updateValue leaves in place.
            if members.updateValue(value, forKey: key) != nil, let earlier = members.index(forKey: key) {
                try checkRepeated(key, earlier: members.keys[earlier], at: keyStart)
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

    /// Refuses `key`, a name already among an object's members as `earlier`, unless it is the
    /// same bytes and the last member of a name wins.
    private func checkRepeated(_ key: String, earlier: String, at keyStart: Int) throws(JSONParseError) {
        guard key.utf8.elementsEqual(earlier.utf8) else {
            throw error(at: keyStart, "the member names \(Self.escaped(earlier)) and \(Self.escaped(key)) are the same text "
                + "in different Unicode forms (different bytes); an object here cannot keep both")
        }
        if repeatedNames == .refuse {
            throw error(at: keyStart, "duplicate key \(JSON.string(key).serialized()) in an object")
        }
    }

    /// `name` quoted with every non-ASCII scalar escaped, so two forms of one text look different.
    private static func escaped(_ name: String) -> String {
        "\"" + name.unicodeScalars.map { $0.isASCII ? String($0) : "\\u{\(String($0.value, radix: 16, uppercase: true))}" }.joined() + "\""
    }

    mutating func parseArray() throws(JSONParseError) -> JSON {
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

    // MARK: Scanning helpers

    func peek() -> UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case ASCII.space, ASCII.tab, ASCII.newline, ASCII.carriageReturn: index += 1
            default: return
            }
        }
    }

    func error(_ reason: String) -> JSONParseError {
        error(at: index, reason)
    }

    func error(at offset: Int, _ reason: String) -> JSONParseError {
        JSONParseError.at(offset, in: bytes, reason: reason)
    }

    /// The text at the current position as written in a message: `'"'`, `'é'`, `U+0001`,
    /// `byte 0xFF` or `the end of the input`.
    func found() -> String {
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

    static func describe(_ byte: UInt8) -> String {
        (0x21..<0x7F).contains(byte) ? String(UnicodeScalar(byte)) : scalarName(UInt32(byte))
    }

    static func scalarName(_ value: UInt32) -> String {
        "U+" + hex(value)
    }

    static func byteName(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return "0x" + (digits.count < 2 ? "0" + digits : digits)
    }

    static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case ASCII.zero...ASCII.nine: return UInt32(byte - ASCII.zero)
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    static func isDigit(_ byte: UInt8) -> Bool {
        byte &- ASCII.zero < 10
    }
}
