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
            writeInteger(integer, into: &output)
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
        // Sorting the indices, not copies of the members, spares a retain and release of every
        // key and value; each key's first 8 bytes are read once, so most comparisons are one
        // integer comparison and only keys sharing those bytes compare the rest.
        // The order is sorted on the stack: an array of it was an allocation per object written.
        withUnsafeTemporaryAllocation(of: (prefix: UInt64, index: Dictionary<String, JSON>.Index).self, capacity: members.count) { order in
            let keys = members.keys
            var count = 0
            for index in keys.indices {
                order.initializeElement(at: count, to: (keyPrefix(keys[index]), index))
                count += 1
            }
            var sorted = UnsafeMutableBufferPointer(rebasing: order[..<count])
            sorted.sort { $0.prefix != $1.prefix ? $0.prefix < $1.prefix : keyPrecedes(keys[$0.index], keys[$1.index]) }
            for position in 0..<count {
                let index = sorted[position].index
                if position > 0 { output.append(ASCII.comma) }
                newline(into: &output, indent: inner)
                writeString(keys[index], into: &output)
                output.append(ASCII.colon)
                if indent != nil { output.append(ASCII.space) }
                write(members.values[index], into: &output, indent: inner)
            }
            _ = sorted.deinitialize()
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
        let text = number.description
        if text.utf8.withContiguousStorageIfAvailable({ output.append(contentsOf: $0) }) == nil {
            output.append(contentsOf: text.utf8)
        }
    }

    /// Writes the decimal digits of `integer` straight into `output`, as `String(integer)`
    /// spells them, without making the intermediate string.
    static func writeInteger(_ integer: Int64, into output: inout [UInt8]) {
        if integer < 0 { output.append(ASCII.minus) }
        var magnitude = integer.magnitude
        guard magnitude >= 10 else {
            output.append(ASCII.zero &+ UInt8(truncatingIfNeeded: magnitude))
            return
        }
        // 20 digits hold UInt64.max; they are produced last first, then copied in order.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = 20
            while magnitude > 0 {
                start -= 1
                digits[start] = ASCII.zero &+ UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    /// The first 8 UTF-8 bytes of `key`, big-endian, zero-padded: keys whose prefixes differ
    /// sort as their prefixes do (a shorter key pads with zeros, below any byte it lacks).
    static func keyPrefix(_ key: String) -> UInt64 {
        func prefix(of bytes: some Sequence<UInt8>) -> UInt64 {
            var prefix: UInt64 = 0
            var shift: UInt64 = 56
            for byte in bytes.prefix(8) {
                prefix |= UInt64(byte) << shift
                shift &-= 8
            }
            return prefix
        }
        return key.utf8.withContiguousStorageIfAvailable { prefix(of: $0) } ?? prefix(of: key.utf8)
    }

    /// Whether `left` sorts before `right` by their UTF-8 bytes, read in place when both
    /// strings are stored as UTF-8 (always, for Swift-native strings).
    static func keyPrecedes(_ left: String, _ right: String) -> Bool {
        let inPlace = left.utf8.withContiguousStorageIfAvailable { leftBytes in
            right.utf8.withContiguousStorageIfAvailable { rightBytes in
                let common = min(leftBytes.count, rightBytes.count)
                var position = 0
                while position < common {
                    let leftByte = leftBytes[position], rightByte = rightBytes[position]
                    if leftByte != rightByte { return leftByte < rightByte }
                    position += 1
                }
                return leftBytes.count < rightBytes.count
            }
        }
        if let inPlace, let precedes = inPlace { return precedes }
        return left.utf8.lexicographicallyPrecedes(right.utf8)
    }

    /// Writes a quoted string, escaping `"`, `\` and every control character below U+0020.
    static func writeString(_ string: String, into output: inout [UInt8]) {
        output.append(ASCII.quote)
        // Reading the bytes in place needs no mutable copy of the string (whose uniqueness
        // check `withUTF8` pays); only a string not stored as UTF-8 takes the copy.
        if string.utf8.withContiguousStorageIfAvailable({ writeEscaped($0, into: &output) }) == nil {
            var string = string
            string.withUTF8 { writeEscaped($0, into: &output) }
        }
        output.append(ASCII.quote)
    }

    private static func writeEscaped(_ bytes: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
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
