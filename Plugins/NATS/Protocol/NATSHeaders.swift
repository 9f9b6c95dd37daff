import Glibc
import SwitchyardBus

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
    /// happens once per message, so it is read through one buffer pointer (slicing an array
    /// slice retained and released the array for every line and every trim).
    /// - Throws: ``NATSProtocolError`` when the version line is missing or a line has no colon.
    init(parsing bytes: ArraySlice<UInt8>, reusing previous: NATSHeaders? = nil) throws(NATSProtocolError) {
        // Thrown through the closure as it is: wrapping the result in a `Result` copied the
        // parsed headers once more per message.
        self = try bytes.withUnsafeBufferPointer { (buffer) throws(NATSProtocolError) in
            try Self.parse(buffer, reusing: previous)
        }
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>, reusing previous: NATSHeaders?) throws(NATSProtocolError) -> NATSHeaders {
        // Lines are split on bytes: in a Swift string "\r\n" is one character, and bytes are faster.
        var position = 0
        let version = "NATS/1.0".utf8
        guard let first = takeLine(bytes, &position), bytes[first].starts(with: version) else {
            throw .malformedHeaders("the block does not start with NATS/1.0")
        }
        let statusText = trimmed(bytes, (first.lowerBound + version.count)..<first.upperBound)
        var status: Int?
        var statusDescription = ""
        if !statusText.isEmpty {
            var codeEnd = statusText.lowerBound
            while codeEnd < statusText.upperBound, bytes[codeEnd] != UInt8(ascii: " ") { codeEnd += 1 }
            let code = statusText.lowerBound..<codeEnd
            guard code.count == 3, let number = Int(string(bytes, code)), (100...999).contains(number) else {
                let shown = string(bytes, code.lowerBound..<min(code.upperBound, code.lowerBound + NATSProtocolError.excerptLength))
                throw .malformedHeaders("the status \"\(shown)\" is not a three-digit code")
            }
            status = number
            statusDescription = string(bytes, trimmed(bytes, codeEnd..<statusText.upperBound))
        }
        let known = previous?.fields ?? []
        var fields: [Field] = []
        fields.reserveCapacity(max(known.count, 4))
        while let line = takeLine(bytes, &position) {
            guard !line.isEmpty else { continue }
            guard let colon = bytes[line].firstIndex(of: UInt8(ascii: ":")) else {
                let shown = string(bytes, line.lowerBound..<min(line.upperBound, line.lowerBound + NATSProtocolError.excerptLength))
                throw .malformedHeaders("the line \"\(shown)\" has no colon")
            }
            let name = trimmed(bytes, line.lowerBound..<colon)
            guard !name.isEmpty else { throw .malformedHeaders("a field has an empty name") }
            let value = trimmed(bytes, (colon + 1)..<line.upperBound)
            let same = fields.count < known.count ? known[fields.count] : nil
            fields.append(Field(text(bytes, name, reusing: same?.name), text(bytes, value, reusing: same?.value)))
        }
        return NATSHeaders(fields, status: status, statusDescription: statusDescription)
    }

    /// The next line from `position` without its line break, or `nil` at the end.
    private static func takeLine(_ bytes: UnsafeBufferPointer<UInt8>, _ position: inout Int) -> Range<Int>? {
        guard position < bytes.count else { return nil }
        var end = position
        while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
        var line = position..<end
        position = min(end + 1, bytes.count)
        if !line.isEmpty, bytes[line.upperBound - 1] == UInt8(ascii: "\r") { line = line.lowerBound..<(line.upperBound - 1) }
        return line
    }

    private static func string(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    private static func text(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, reusing known: String?) -> String {
        let slice = UnsafeBufferPointer(rebasing: bytes[range])
        if var known, sameBytes(&known, slice) { return known }
        return String(decoding: slice, as: UTF8.self)
    }

    /// Whether `text` is `bytes`, compared in one `memcmp`.
    private static func sameBytes(_ text: inout String, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard text.utf8.count == bytes.count else { return false }
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return true }
        return text.withUTF8 { known in memcmp(known.baseAddress!, base, bytes.count) == 0 }
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

    /// `range` without leading and trailing spaces and tabs.
    private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, bytes[lower] == UInt8(ascii: " ") || bytes[lower] == UInt8(ascii: "\t") { lower += 1 }
        while upper > lower, bytes[upper - 1] == UInt8(ascii: " ") || bytes[upper - 1] == UInt8(ascii: "\t") { upper -= 1 }
        return lower..<upper
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
    /// one header encoder: ``OutgoingMessage/headerBlock(id:origin:time:source:)`` and the forward
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
