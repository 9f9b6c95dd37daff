/// Splits the bytes a NATS server sends into operations, however the reads cut them.
///
/// Memory stays bounded: a control line longer than ``maximumControlLine`` or a message
/// larger than ``maximumMessageSize`` is a protocol error, not a growing buffer. Operation
/// names are read without regard to case, as the protocol allows, and arguments may be
/// separated by runs of spaces or tabs (servers write two spaces where a reply subject is
/// absent).
struct NATSParser {
    /// The default longest control line: an `INFO` from a large cluster lists many addresses.
    static let defaultMaximumControlLine = 64 << 10
    /// The default largest message: the largest `max_payload` a server can be given.
    static let defaultMaximumMessageSize = 64 << 20

    private struct PendingMessage {
        var subject: String
        var sid: String
        var replyTo: String?
        var headerSize: Int?
        var totalSize: Int
    }

    /// The longest control line accepted, in bytes.
    let maximumControlLine: Int
    /// The largest message (headers and payload) accepted, in bytes.
    let maximumMessageSize: Int

    private var buffer: [UInt8] = []
    private var start = 0
    private var scanned = 0
    private var pending: PendingMessage?

    /// Creates a parser with the given limits.
    init(maximumControlLine: Int = defaultMaximumControlLine, maximumMessageSize: Int = defaultMaximumMessageSize) {
        self.maximumControlLine = maximumControlLine
        self.maximumMessageSize = maximumMessageSize
    }

    /// Bytes received but not yet part of a whole operation.
    var bufferedCount: Int { buffer.count - start }

    /// Appends `bytes` and returns every operation they complete, in order.
    /// - Throws: ``NATSProtocolError`` on anything the client protocol does not allow; the
    ///   parser must not be used afterwards.
    mutating func parse(_ bytes: some Collection<UInt8>) throws(NATSProtocolError) -> [NATSServerOperation] {
        buffer.append(contentsOf: bytes)
        var operations: [NATSServerOperation] = []
        while true {
            if let message = pending {
                guard buffer.count - start >= message.totalSize + 2 else { break }
                operations.append(.message(try complete(message)))
                pending = nil
                continue
            }
            guard let newline = findNewline() else {
                if buffer.count - start > maximumControlLine { throw .controlLineTooLong(limit: maximumControlLine) }
                break
            }
            var end = newline
            if end > start, buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            let line = start..<end
            start = newline + 1
            scanned = 0
            if line.count > maximumControlLine { throw .controlLineTooLong(limit: maximumControlLine) }
            if let operation = try controlOperation(line) { operations.append(operation) }
        }
        compact()
        return operations
    }

    private mutating func findNewline() -> Int? {
        var index = start + scanned
        while index < buffer.count {
            if buffer[index] == UInt8(ascii: "\n") { return index }
            index += 1
        }
        scanned = buffer.count - start
        return nil
    }

    private mutating func compact() {
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 20)
            start = 0
        } else if start > 64 << 10 {
            buffer.removeSubrange(0..<start)
            start = 0
        }
    }

    /// Reads one control line; returns `nil` for a `MSG`/`HMSG` header, whose payload follows.
    private mutating func controlOperation(_ line: Range<Int>) throws(NATSProtocolError) -> NATSServerOperation? {
        let tokens = Self.tokens(buffer[line])
        guard let first = tokens.first else { return nil }
        let name = buffer[first]
        if Self.equals(name, "MSG") || Self.equals(name, "HMSG") {
            let operation = Self.equals(name, "MSG") ? "MSG" : "HMSG"
            pending = try messageHeader(operation, tokens: tokens.dropFirst().map { String(decoding: buffer[$0], as: UTF8.self) }, line: line)
            return nil
        } else if Self.equals(name, "PING") {
            return .ping
        } else if Self.equals(name, "PONG") {
            return .pong
        } else if Self.equals(name, "+OK") {
            return .ok
        } else if Self.equals(name, "-ERR") {
            var text = String(decoding: buffer[first.upperBound..<line.upperBound], as: UTF8.self)[...].trimmingSpaces
            if text.count >= 2, text.hasPrefix("'"), text.hasSuffix("'") { text = text.dropFirst().dropLast() }
            return .error(String(text))
        } else if Self.equals(name, "INFO") {
            return .info(try NATSServerInfo(parsing: buffer[first.upperBound..<line.upperBound]))
        }
        throw .unknownOperation(text(line))
    }

    private func messageHeader(_ name: String, tokens arguments: [String], line: Range<Int>) throws(NATSProtocolError) -> PendingMessage {
        let hasHeaders = name == "HMSG"
        let sizes = hasHeaders ? 2 : 1
        guard arguments.count == 2 + sizes || arguments.count == 3 + sizes else { throw .malformed(name, line: text(line)) }
        let replyTo = arguments.count == 3 + sizes ? arguments[2] : nil
        let sizeTexts = arguments.suffix(sizes)
        guard let totalSize = sizeTexts.last.flatMap({ Int($0) }), totalSize >= 0 else { throw .malformed(name, line: text(line)) }
        var headerSize: Int?
        if hasHeaders {
            guard let size = Int(sizeTexts.first ?? ""), size >= 0, size <= totalSize else { throw .malformed(name, line: text(line)) }
            headerSize = size
        }
        guard totalSize <= maximumMessageSize else { throw .messageTooLarge(size: totalSize, limit: maximumMessageSize) }
        return PendingMessage(subject: arguments[0], sid: arguments[1], replyTo: replyTo, headerSize: headerSize, totalSize: totalSize)
    }

    private mutating func complete(_ message: PendingMessage) throws(NATSProtocolError) -> NATSMessage {
        let bodyEnd = start + message.totalSize
        guard buffer[bodyEnd] == UInt8(ascii: "\r"), buffer[bodyEnd + 1] == UInt8(ascii: "\n") else {
            throw .missingTerminator(subject: message.subject)
        }
        var headers: NATSHeaders?
        var headerProblem: NATSProtocolError?
        var payloadStart = start
        if let headerSize = message.headerSize {
            do {
                headers = try NATSHeaders(parsing: buffer[start..<start + headerSize])
            } catch {
                headerProblem = error
            }
            payloadStart += headerSize
        }
        let payload = Array(buffer[payloadStart..<bodyEnd])
        start = bodyEnd + 2
        scanned = 0
        return NATSMessage(subject: message.subject, sid: message.sid, replyTo: message.replyTo, headers: headers,
                           payload: payload, headerProblem: headerProblem)
    }

    private func text(_ line: Range<Int>) -> String {
        String(decoding: buffer[line], as: UTF8.self)
    }

    /// Whether `bytes` spell the upper-case ASCII `name`, ignoring case.
    private static func equals(_ bytes: ArraySlice<UInt8>, _ name: StaticString) -> Bool {
        guard bytes.count == name.utf8CodeUnitCount else { return false }
        return name.withUTF8Buffer { expected in
            zip(bytes, expected).allSatisfy { byte, upper in
                byte == upper || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") && byte - 32 == upper)
            }
        }
    }

    private static func tokens(_ line: ArraySlice<UInt8>) -> [Range<Int>] {
        var tokens: [Range<Int>] = []
        var tokenStart: Int?
        for index in line.indices {
            let isSeparator = line[index] == UInt8(ascii: " ") || line[index] == UInt8(ascii: "\t")
            if isSeparator, let begin = tokenStart {
                tokens.append(begin..<index)
                tokenStart = nil
            } else if !isSeparator, tokenStart == nil {
                tokenStart = index
            }
        }
        if let begin = tokenStart { tokens.append(begin..<line.endIndex) }
        return tokens
    }
}
