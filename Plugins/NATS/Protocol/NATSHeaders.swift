/// The header block of a NATS message: `NATS/1.0`, an optional status (`503`, `408 Request
/// Timeout`), then `Name: value` lines.
///
/// Names keep their case, as NATS does; ``subscript(_:)`` finds a name exactly first and
/// ignoring case second, since servers and other clients differ in how they spell them.
public struct NATSHeaders: Sendable, Hashable {
    /// One `Name: value` line.
    public struct Field: Sendable, Hashable {
        /// The name, as written.
        public var name: String
        /// The value, without surrounding spaces.
        public var value: String

        /// Creates a field.
        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The status code on the version line (`503` for no responders, `408` for an expired
    /// pull request); `nil` for an ordinary message.
    public var status: Int?
    /// The words after the status code, such as `Request Timeout`; empty when there are none.
    public var statusDescription: String
    /// The fields in the order they were written.
    public var fields: [Field]

    /// Creates headers; an ordinary message has no status.
    public init(_ fields: [Field] = [], status: Int? = nil, statusDescription: String = "") {
        self.fields = fields
        self.status = status
        self.statusDescription = statusDescription
    }

    /// The value of the first field named `name`; `nil` when there is none.
    public subscript(_ name: String) -> String? {
        if let exact = fields.first(where: { $0.name == name }) { return exact.value }
        let lowered = name.lowercased()
        return fields.first { $0.name.lowercased() == lowered }?.value
    }

    /// Reads a header block as a server sends it, the blank line that ends it included.
    /// - Throws: ``NATSProtocolError`` when the version line is missing or a line has no colon.
    public init(parsing bytes: ArraySlice<UInt8>) throws(NATSProtocolError) {
        // Lines are split on bytes: in a Swift string "\r\n" is one character.
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line in
            String(decoding: line.last == UInt8(ascii: "\r") ? line.dropLast() : line, as: UTF8.self)[...]
        }
        while let last = lines.last, last.isEmpty { lines.removeLast() }
        guard let version = lines.first, version.hasPrefix("NATS/1.0") else {
            throw .malformedHeaders("the block does not start with NATS/1.0")
        }
        let statusText = version.dropFirst("NATS/1.0".count).trimmingSpaces
        if statusText.isEmpty {
            status = nil
            statusDescription = ""
        } else {
            let code = statusText.prefix { $0 != " " }
            guard let number = Int(code), (100...999).contains(number) else {
                throw .malformedHeaders("the status \"\(code.prefix(NATSProtocolError.excerptLength))\" is not a three-digit code")
            }
            status = number
            statusDescription = String(statusText.dropFirst(code.count).trimmingSpaces)
        }
        var fields: [Field] = []
        for line in lines.dropFirst() where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else {
                throw .malformedHeaders("the line \"\(line.prefix(NATSProtocolError.excerptLength))\" has no colon")
            }
            let name = line[..<colon].trimmingSpaces
            guard !name.isEmpty else { throw .malformedHeaders("a field has an empty name") }
            fields.append(Field(String(name), String(line[line.index(after: colon)...].trimmingSpaces)))
        }
        self.fields = fields
    }

    /// The block as a client sends it: version line, fields, blank line. Line breaks in
    /// names or values become spaces, so a value can never start a field of its own.
    public var encoded: [UInt8] {
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
        guard text.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\r\n" }) else { return text }
        return String(text.map { $0 == "\r" || $0 == "\n" || $0 == "\r\n" ? " " : $0 })
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
