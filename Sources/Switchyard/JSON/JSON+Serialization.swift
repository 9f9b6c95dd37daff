extension JSON {
    /// The value as compact JSON text: no whitespace, object keys sorted by their UTF-8 bytes,
    /// integers without a fraction, fractional numbers in their shortest round-trip form and
    /// non-finite numbers as `null` (JSON has no spelling for them).
    public func serialized() -> String {
        var output: [UInt8] = []
        output.reserveCapacity(128)
        serialize(into: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// Appends the compact form of ``serialized()`` to `output` as UTF-8, so a caller writing
    /// many values (journal lines, socket replies) reuses one buffer.
    public func serialize(into output: inout [UInt8]) {
        JSONWriter.write(self, into: &output, indent: nil)
    }

    /// The value as indented JSON text: two spaces per level, one member or element per line,
    /// `"key": value` with sorted keys, and `{}` / `[]` for empty containers. No trailing newline.
    public func prettyPrinted() -> String {
        var output: [UInt8] = []
        output.reserveCapacity(256)
        JSONWriter.write(self, into: &output, indent: 0)
        return String(decoding: output, as: UTF8.self)
    }
}

extension JSON: CustomStringConvertible {
    /// The compact JSON text of the value, as ``serialized()`` writes it.
    public var description: String {
        serialized()
    }
}

/// Writes JSON values as UTF-8 text.
enum JSONWriter {
    /// Writes `value`; `indent` is the current nesting level for pretty output, `nil` for compact.
    static func write(_ value: JSON, into output: inout [UInt8], indent: Int?) {
        switch value {
        case .null:
            output.append(contentsOf: "null".utf8)
        case .bool(let flag):
            output.append(contentsOf: (flag ? "true" : "false").utf8)
        case .integer(let integer):
            output.append(contentsOf: String(integer).utf8)
        case .number(let number):
            writeNumber(number, into: &output)
        case .string(let string):
            writeString(string, into: &output)
        case .array(let elements):
            writeArray(elements, into: &output, indent: indent)
        case .object(let members):
            writeObject(members, into: &output, indent: indent)
        }
    }

    private static func writeArray(_ elements: [JSON], into output: inout [UInt8], indent: Int?) {
        output.append(ASCII.openBracket)
        let inner = indent.map { $0 + 1 }
        for (position, element) in elements.enumerated() {
            if position > 0 { output.append(ASCII.comma) }
            newline(into: &output, indent: inner)
            write(element, into: &output, indent: inner)
        }
        if !elements.isEmpty { newline(into: &output, indent: indent) }
        output.append(ASCII.closeBracket)
    }

    private static func writeObject(_ members: [String: JSON], into output: inout [UInt8], indent: Int?) {
        output.append(ASCII.openBrace)
        let inner = indent.map { $0 + 1 }
        // Most payloads are small objects written several times per action (journal, watchers,
        // logger): one member needs no sorted copy.
        if members.count == 1, let member = members.first {
            newline(into: &output, indent: inner)
            writeString(member.key, into: &output)
            output.append(ASCII.colon)
            if indent != nil { output.append(ASCII.space) }
            write(member.value, into: &output, indent: inner)
            newline(into: &output, indent: indent)
            output.append(ASCII.closeBrace)
            return
        }
        let sorted = members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        for (position, member) in sorted.enumerated() {
            if position > 0 { output.append(ASCII.comma) }
            newline(into: &output, indent: inner)
            writeString(member.key, into: &output)
            output.append(ASCII.colon)
            if indent != nil { output.append(ASCII.space) }
            write(member.value, into: &output, indent: inner)
        }
        if !members.isEmpty { newline(into: &output, indent: indent) }
        output.append(ASCII.closeBrace)
    }

    private static func newline(into output: inout [UInt8], indent: Int?) {
        guard let indent else { return }
        output.append(ASCII.newline)
        output.append(contentsOf: repeatElement(ASCII.space, count: indent * 2))
    }

    /// Swift's `description` is already the shortest text that reads back to the same `Double`,
    /// and its forms (`1.5`, `1e-05`, `1e+16`, `-0.0`) are all valid JSON numbers.
    static func writeNumber(_ number: Double, into output: inout [UInt8]) {
        guard number.isFinite else {
            output.append(contentsOf: "null".utf8)
            return
        }
        output.append(contentsOf: number.description.utf8)
    }

    /// Writes a quoted string, escaping `"`, `\` and every control character below U+0020.
    static func writeString(_ string: String, into output: inout [UInt8]) {
        output.append(ASCII.quote)
        var string = string
        string.withUTF8 { bytes in
            var runStart = 0
            for position in bytes.indices {
                let byte = bytes[position]
                guard byte < 0x20 || byte == ASCII.quote || byte == ASCII.backslash else { continue }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<position]))
                appendEscape(for: byte, into: &output)
                runStart = position + 1
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
        }
        output.append(ASCII.quote)
    }

    private static func appendEscape(for byte: UInt8, into output: inout [UInt8]) {
        output.append(ASCII.backslash)
        switch byte {
        case ASCII.quote, ASCII.backslash: output.append(byte)
        case ASCII.newline: output.append(UInt8(ascii: "n"))
        case ASCII.carriageReturn: output.append(UInt8(ascii: "r"))
        case ASCII.tab: output.append(UInt8(ascii: "t"))
        case 0x08: output.append(UInt8(ascii: "b"))
        case 0x0C: output.append(UInt8(ascii: "f"))
        default:
            let hexDigits = Array("0123456789abcdef".utf8)
            output.append(contentsOf: "u00".utf8)
            output.append(hexDigits[Int(byte >> 4)])
            output.append(hexDigits[Int(byte & 0x0F)])
        }
    }
}
