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
    /// - Throws: ``NATSProtocolError`` when the version line is missing or a line has no colon.
    init(parsing bytes: ArraySlice<UInt8>) throws(NATSProtocolError) {
        // Lines are split on bytes: in a Swift string "\r\n" is one character, and bytes are faster.
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line in
            line.last == UInt8(ascii: "\r") ? line.dropLast() : line
        }
        while let last = lines.last, last.isEmpty { lines.removeLast() }
        let version = Array("NATS/1.0".utf8)
        guard let first = lines.first, first.starts(with: version) else {
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
        var fields: [Field] = []
        fields.reserveCapacity(lines.count - 1)
        for line in lines.dropFirst() where !line.isEmpty {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
                let shown = String(decoding: line.prefix(NATSProtocolError.excerptLength), as: UTF8.self)
                throw .malformedHeaders("the line \"\(shown)\" has no colon")
            }
            let name = Self.trimmed(line[..<colon])
            guard !name.isEmpty else { throw .malformedHeaders("a field has an empty name") }
            fields.append(Field(String(decoding: name, as: UTF8.self), String(decoding: Self.trimmed(line[(colon + 1)...]), as: UTF8.self)))
        }
        self.fields = fields
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
        var text = "NATS/1.0"
        if let status {
            text += " \(status)"
            if !statusDescription.isEmpty { text += " " + Self.singleLine(statusDescription) }
        }
        text += "\r\n"
        for field in fields {
            text += Self.singleLine(field.name) + ": " + Self.singleLine(field.value) + "\r\n"
        }
        text += "\r\n"
        return Array(text.utf8)
    }

    private static func singleLine(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 13 || $0 == 10 }) else { return text }
        return String(decoding: text.utf8.map { $0 == 13 || $0 == 10 ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
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
