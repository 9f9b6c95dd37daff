/// The pieces of markup: names, attributes, text and references, and what is skipped
/// (comments, processing instructions, the XML declaration). Each reads from `index` and
/// leaves `index` after what it read.
extension XMLTokenizer {
    /// The byte at `offset`, or `nil` past the end.
    func byte(at offset: Int) -> UInt8? {
        offset < bytes.count ? bytes[offset] : nil
    }

    /// Whether `text` (ASCII) is at `offset`.
    func matches(_ text: StaticString, at offset: Int) -> Bool {
        guard offset + text.utf8CodeUnitCount <= bytes.count else { return false }
        let pattern = UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
        return pattern.indices.allSatisfy { bytes[offset + $0] == pattern[$0] }
    }

    /// The offset of the first `text` (ASCII) at or after `offset`, if any.
    func find(_ text: StaticString, from offset: Int) -> Int? {
        let first = text.utf8Start.pointee
        var candidate = offset
        while candidate < bytes.count {
            if bytes[candidate] == first, matches(text, at: candidate) { return candidate }
            candidate += 1
        }
        return nil
    }

    /// Skips white space; whether there was any.
    @discardableResult
    mutating func skipSpace() -> Bool {
        let start = index
        while index < bytes.count, XMLCharacters.isSpace(bytes[index]) { index += 1 }
        return index > start
    }

    /// A name at `index`; `expected` is the error when there is none.
    mutating func readName(expected: String) throws(XMLError) -> String {
        let start = index
        guard let first = byte(at: index), XMLCharacters.isNameStart(first) else { throw error(expected, at: index) }
        index += 1
        while index < bytes.count, XMLCharacters.isNameCharacter(bytes[index]) { index += 1 }
        guard index - start <= Self.maxTokenBytes else { throw error("a name longer than 1 MiB", at: start) }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// The attributes up to the end of a start tag (`>` or `/>`, then whether it closes
    /// itself) or of the XML declaration (`?>`).
    mutating func readAttributes(of element: String, declaration: Bool) throws(XMLError) -> ([XMLStartTag.Attribute], Bool) {
        var attributes: [XMLStartTag.Attribute] = []
        let end = declaration ? "'?>' expected: the XML declaration is not closed" : "'>' expected: the start tag <\(element)> is not closed"
        while true {
            let spaced = skipSpace()
            guard let next = byte(at: index) else { throw error(end, at: index) }
            if declaration, matches("?>", at: index) {
                index += 2
                return (attributes, false)
            }
            if !declaration, next == UInt8(ascii: ">") {
                index += 1
                return (attributes, false)
            }
            if !declaration, matches("/>", at: index) {
                index += 2
                return (attributes, true)
            }
            guard XMLCharacters.isNameStart(next) else { throw error(end, at: index) }
            guard spaced else { throw error("white space expected before an attribute", at: index) }
            let start = index
            let name = try readName(expected: end)
            skipSpace()
            guard byte(at: index) == UInt8(ascii: "=") else { throw error("'=' expected after attribute \(name)", at: index) }
            index += 1
            skipSpace()
            guard let quote = byte(at: index), quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
                throw error("a quoted value expected for attribute \(name)", at: index)
            }
            let value = try readAttributeValue(of: name, quote: quote)
            if attributes.contains(where: { $0.name == name }) { throw error("attribute \(name) appears twice", at: start) }
            attributes.append(XMLStartTag.Attribute(name: name, value: value))
        }
    }

    /// A quoted attribute value at `index` (its opening quote): references resolved, tab, CR,
    /// LF and CR LF each made one space, as XML normalizes them.
    private mutating func readAttributeValue(of name: String, quote: UInt8) throws(XMLError) -> String {
        let start = index
        index += 1
        var value: [UInt8] = []
        while true {
            guard let next = byte(at: index) else { throw error("the value of attribute \(name) is not closed", at: start) }
            switch next {
            case quote:
                index += 1
                return String(decoding: value, as: UTF8.self)
            case UInt8(ascii: "<"):
                throw error("'<' is not allowed in an attribute value (write &lt;)", at: index)
            case UInt8(ascii: "&"):
                try appendReference(to: &value)
            case 0x0D:
                value.append(0x20)
                index += byte(at: index + 1) == 0x0A ? 2 : 1
            case 0x09, 0x0A:
                value.append(0x20)
                index += 1
            default:
                value.append(next)
                index += 1
            }
            if value.count > Self.maxTokenBytes { throw error("the value of attribute \(name) is longer than 1 MiB", at: start) }
        }
    }

    /// Character data up to the next `<` or the end: references resolved, CR LF and CR made LF.
    mutating func readText() throws(XMLError) -> String {
        let start = index
        var text: [UInt8] = []
        while let next = byte(at: index), next != UInt8(ascii: "<") {
            switch next {
            case UInt8(ascii: "&"):
                try appendReference(to: &text)
            case 0x0D:
                text.append(0x0A)
                index += byte(at: index + 1) == 0x0A ? 2 : 1
            case UInt8(ascii: "]") where matches("]]>", at: index):
                throw error("']]>' is not allowed in text", at: index)
            default:
                text.append(next)
                index += 1
            }
            if text.count > Self.maxTokenBytes { throw error("a text longer than 1 MiB", at: start) }
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Resolves the reference at `index` (its `&`) into `buffer`: one of the five predefined
    /// entities or a character reference to a character XML allows.
    private mutating func appendReference(to buffer: inout [UInt8]) throws(XMLError) {
        let start = index
        if byte(at: index + 1) == UInt8(ascii: "#") {
            var cursor = index + 2
            let hex = byte(at: cursor) == UInt8(ascii: "x")
            if hex { cursor += 1 }
            var scalar: UInt32 = 0
            var digits = 0
            while let next = byte(at: cursor), let digit = Self.digit(next, hex: hex) {
                scalar = min(scalar * (hex ? 16 : 10) + digit, 0x11_0000)
                digits += 1
                cursor += 1
            }
            guard digits > 0, byte(at: cursor) == UInt8(ascii: ";") else {
                throw error("a character reference must be &#DIGITS; or &#xHEX;", at: start)
            }
            guard XMLCharacters.isAllowed(scalar), let character = Unicode.Scalar(scalar) else {
                let written = String(decoding: bytes[start...cursor], as: UTF8.self)
                throw error("\(written) refers to a character XML does not allow", at: start)
            }
            UTF8.encode(character) { buffer.append($0) }
            index = cursor + 1
            return
        }
        var cursor = index + 1
        while let next = byte(at: cursor), XMLCharacters.isNameCharacter(next), cursor - start <= 32 { cursor += 1 }
        guard cursor > start + 1, byte(at: cursor) == UInt8(ascii: ";") else {
            throw error("'&' must begin an entity or character reference (write &amp; for '&')", at: start)
        }
        let replacement: UInt8
        switch String(decoding: bytes[(start + 1)..<cursor], as: UTF8.self) {
        case "amp": replacement = UInt8(ascii: "&")
        case "lt": replacement = UInt8(ascii: "<")
        case "gt": replacement = UInt8(ascii: ">")
        case "quot": replacement = UInt8(ascii: "\"")
        case "apos": replacement = UInt8(ascii: "'")
        case let name: throw error("undefined entity &\(name);", at: start)
        }
        buffer.append(replacement)
        index = cursor + 1
    }

    private static func digit(_ byte: UInt8, hex: Bool) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f") where hex: return UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F") where hex: return UInt32(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }
}
