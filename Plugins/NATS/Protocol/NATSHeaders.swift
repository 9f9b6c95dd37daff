import Glibc
import Switchyard

/// The header block of a NATS message: `NATS/1.0`, an optional status (`503`, `408 Request
/// Timeout`), then `Name: value` lines.
///
/// Names keep their case, as NATS does; ``subscript(_:)`` finds a name exactly first and
/// ignoring case second, since servers and other clients differ in how they spell them.
struct NATSHeaders: Sendable, Hashable {
    /// One `Name: value` line.
    struct Field: Sendable, Hashable {
        /// The name, as written.
        var name: String
        /// The value, without surrounding spaces.
        var value: String

        /// Creates a field.
        init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The status code on the version line (`503` for no responders, `408` for an expired
    /// pull request); `nil` for an ordinary message.
    var status: Int?
    /// The words after the status code, such as `Request Timeout`; empty when there are none.
    var statusDescription: String
    /// The fields in the order they were written.
    var fields: [Field]

    /// Creates headers; an ordinary message has no status.
    init(_ fields: [Field] = [], status: Int? = nil, statusDescription: String = "") {
        self.fields = fields
        self.status = status
        self.statusDescription = statusDescription
    }

    /// The value of the first field named `name`; `nil` when there is none.
    subscript(_ name: String) -> String? {
        if let exact = fields.first(where: { $0.name == name }) { return exact.value }
        let lowered = name.lowercased()
        return fields.first { $0.name.lowercased() == lowered }?.value
    }

    /// Reads a header block as a server sends it, the blank line that ends it included.
    ///
    /// Names and values equal to those of `previous` at the same position reuse its strings:
    /// a stream of messages from one publisher repeats most of them, and reading this block
    /// happens once per message.
    /// - Throws: ``NATSProtocolError`` when the version line is missing or a line has no colon.
    init(parsing bytes: ArraySlice<UInt8>, reusing previous: NATSHeaders? = nil) throws(NATSProtocolError) {
        // Lines are split on bytes: in a Swift string "\r\n" is one character, and bytes are faster.
        var rest = bytes
        let version = "NATS/1.0".utf8
        guard let first = Self.takeLine(&rest), first.starts(with: version) else {
            throw .malformedHeaders("the block does not start with NATS/1.0")
        }
        let statusText = Self.trimmed(first.dropFirst(version.count))
        if statusText.isEmpty {
            status = nil
            statusDescription = ""
        } else {
            let code = statusText.prefix { $0 != UInt8(ascii: " ") }
            guard code.count == 3, let number = Int(String(decoding: code, as: UTF8.self)), (100...999).contains(number) else {
                let shown = String(decoding: code.prefix(NATSProtocolError.excerptLength), as: UTF8.self)
                throw .malformedHeaders("the status \"\(shown)\" is not a three-digit code")
            }
            status = number
            statusDescription = String(decoding: Self.trimmed(statusText.dropFirst(code.count)), as: UTF8.self)
        }
        let known = previous?.fields ?? []
        var fields: [Field] = []
        fields.reserveCapacity(max(known.count, 4))
        while let line = Self.takeLine(&rest) {
            guard !line.isEmpty else { continue }
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
                let shown = String(decoding: line.prefix(NATSProtocolError.excerptLength), as: UTF8.self)
                throw .malformedHeaders("the line \"\(shown)\" has no colon")
            }
            let name = Self.trimmed(line[..<colon])
            guard !name.isEmpty else { throw .malformedHeaders("a field has an empty name") }
            let value = Self.trimmed(line[(colon + 1)...])
            let same = fields.count < known.count ? known[fields.count] : nil
            fields.append(Field(Self.text(name, reusing: same?.name), Self.text(value, reusing: same?.value)))
        }
        self.fields = fields
    }

    /// The next line of `rest` without its line break, or `nil` at the end.
    private static func takeLine(_ rest: inout ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        guard !rest.isEmpty else { return nil }
        let newline = rest.firstIndex(of: UInt8(ascii: "\n")) ?? rest.endIndex
        var line = rest[..<newline]
        rest = rest[min(newline + 1, rest.endIndex)...]
        if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
        return line
    }

    private static func text(_ bytes: ArraySlice<UInt8>, reusing known: String?) -> String {
        if let known, sameBytes(known.utf8, bytes) { return known }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether `text` is `bytes`, compared in one `memcmp` when the string is contiguous.
    static func sameBytes(_ text: String.UTF8View, _ bytes: ArraySlice<UInt8>) -> Bool {
        guard text.count == bytes.count else { return false }
        guard !bytes.isEmpty else { return true }
        let compared = text.withContiguousStorageIfAvailable { known in
            bytes.withUnsafeBufferPointer { new in memcmp(known.baseAddress!, new.baseAddress!, new.count) == 0 }
        }
        return compared ?? text.elementsEqual(bytes)
    }

    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var text = bytes
        while let first = text.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") { text.removeFirst() }
        while let last = text.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { text.removeLast() }
        return text
    }

    /// The block as a client sends it: version line, fields, blank line. Line breaks in
    /// names or values become spaces, so a value can never start a field of its own.
    var encoded: [UInt8] {
        var block: [UInt8] = Array("NATS/1.0".utf8)
        if let status {
            block.append(UInt8(ascii: " "))
            LineBytes.appendDecimal(UInt64(clamping: status), to: &block)
            if !statusDescription.isEmpty {
                block.append(UInt8(ascii: " "))
                Self.appendSingleLine(statusDescription, to: &block)
            }
        }
        block.append(contentsOf: "\r\n".utf8)
        for field in fields {
            Self.appendSingleLine(field.name, to: &block)
            block.append(contentsOf: ": ".utf8)
            Self.appendSingleLine(field.value, to: &block)
            block.append(contentsOf: "\r\n".utf8)
        }
        block.append(contentsOf: "\r\n".utf8)
        return block
    }

    /// Appends `text` as ``encoded`` writes a name or value: line breaks become spaces. The
    /// one header encoder: ``OutgoingMessage/headerBlock(id:origin:source:)`` and the forward
    /// encoder write their fields through it too.
    static func appendSingleLine(_ text: String, to output: inout [UInt8]) {
        guard text.utf8.contains(where: { $0 == 13 || $0 == 10 }) else {
            output.append(contentsOf: text.utf8)
            return
        }
        for byte in text.utf8 {
            output.append(byte == 13 || byte == 10 ? UInt8(ascii: " ") : byte)
        }
    }
}

extension Substring {
    /// The text without leading and trailing spaces and tabs.
    var trimmingSpaces: Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return text
    }
}
