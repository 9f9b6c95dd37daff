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
    private var subjects = RepeatedText()
    private var sids = RepeatedText()
    private var lastHeaders: NATSHeaders?
    /// The tokens of the control line being read.
    private var tokenRanges: [Range<Int>] = []

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
        Self.tokens(buffer[line], into: &tokenRanges)
        let tokens = tokenRanges
        guard let first = tokens.first else { return nil }
        let name = buffer[first]
        if Self.equals(name, "MSG") || Self.equals(name, "HMSG") {
            pending = try messageHeader(Self.equals(name, "MSG") ? "MSG" : "HMSG", tokens: tokens.dropFirst(), line: line)
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

    /// Reads the arguments of a `MSG` or `HMSG` line. Sizes are read from the bytes, and the
    /// subject and sid strings are reused while they repeat, as they do in a steady stream:
    /// this line is read once per message.
    private mutating func messageHeader(_ name: String, tokens arguments: ArraySlice<Range<Int>>, line: Range<Int>) throws(NATSProtocolError) -> PendingMessage {
        let hasHeaders = name == "HMSG"
        let sizes = hasHeaders ? 2 : 1
        guard arguments.count == 2 + sizes || arguments.count == 3 + sizes else { throw .malformed(name, line: text(line)) }
        let first = arguments.startIndex
        let replyTo = arguments.count == 3 + sizes ? text(arguments[first + 2]) : nil
        guard let totalSize = Self.decimal(buffer[arguments[arguments.endIndex - 1]]) else { throw .malformed(name, line: text(line)) }
        var headerSize: Int?
        if hasHeaders {
            guard let size = Self.decimal(buffer[arguments[arguments.endIndex - 2]]), size <= totalSize else { throw .malformed(name, line: text(line)) }
            headerSize = size
        }
        guard totalSize <= maximumMessageSize else { throw .messageTooLarge(size: totalSize, limit: maximumMessageSize) }
        let subject = subjects.text(buffer[arguments[first]])
        let sid = sids.text(buffer[arguments[first + 1]])
        return PendingMessage(subject: subject, sid: sid, replyTo: replyTo, headerSize: headerSize, totalSize: totalSize)
    }

    /// A non-negative decimal of at most 18 digits; `nil` for anything else.
    private static func decimal(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard !bytes.isEmpty, bytes.count <= 18 else { return nil }
        var value = 0
        for byte in bytes {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
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
                headers = try NATSHeaders(parsing: buffer[start..<start + headerSize], reusing: lastHeaders)
                lastHeaders = headers
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

    /// Splits `line` into `tokens`, which keeps its storage from line to line: a fresh array
    /// per control line was an allocation per message.
    private static func tokens(_ line: ArraySlice<UInt8>, into tokens: inout [Range<Int>]) {
        tokens.removeAll(keepingCapacity: true)
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
    }
}

/// The last string read from some bytes, returned again while the same bytes come: a stream
/// of messages repeats its subject and sid, and a string of more than 15 bytes costs an
/// allocation to make.
struct RepeatedText {
    private var last = ""

    /// The string of `slice`, the same instance as last time when the bytes are the same.
    mutating func text(_ slice: ArraySlice<UInt8>) -> String {
        if NATSHeaders.sameBytes(last.utf8, slice) { return last }
        last = String(decoding: slice, as: UTF8.self)
        return last
    }
}
