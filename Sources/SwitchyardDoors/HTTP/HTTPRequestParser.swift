/// Frames HTTP/1.x requests from a byte stream: a pure state machine, tested without I/O.
///
/// Pull-based like the control socket's line reader: bytes go in with ``append(_:)``, and
/// ``next()`` hands out one event at a time, so a connection answers one request before it
/// takes the next one (pipelined requests wait in the buffer). Bodies are framed only by
/// `Content-Length`; a chunked body gets 411 and any other transfer coding 501. Every limit
/// (``HTTPLimits``) is checked as bytes arrive, so an oversized request never grows memory
/// past it. After a failure the parser hands out nothing more: the connection answers it and
/// closes.
struct HTTPRequestParser: Sendable {
    /// What the parser hands out.
    enum Event: Sendable, Hashable {
        /// A whole request.
        case request(HTTPRequest)
        /// The client sent `Expect: 100-continue` and waits for an interim response before it
        /// sends the body.
        case continueExpected
        /// The request cannot be served; answer with the failure and close.
        case failure(HTTPFailure)
    }

    private enum Phase: Sendable {
        case requestLine
        case headers(HTTPRequest, bytes: Int)
        case body(HTTPRequest, length: Int)
        case failed
    }

    let limits: HTTPLimits
    private var buffer: [UInt8] = []
    private var start = 0
    /// Bytes after `start` already searched for a line feed without finding one.
    private var searched = 0
    private var phase = Phase.requestLine

    init(limits: HTTPLimits) {
        self.limits = limits
    }

    /// Bytes held and not yet handed out.
    var bufferedCount: Int { buffer.count - start }

    /// Whether a request has begun and is not complete: bytes of it are held, or its headers
    /// were read.
    var isInsideRequest: Bool {
        switch phase {
        case .requestLine: buffer[start...].contains { $0 != UInt8(ascii: "\r") && $0 != UInt8(ascii: "\n") }
        case .headers, .body: true
        case .failed: false
        }
    }

    /// The length of the body being read once its request's head is read, else 0: the
    /// connection reads that far whatever its read-ahead, or a body longer than the
    /// read-ahead would never complete.
    var awaitedBodyLength: Int {
        if case .body(_, let length) = phase { return length }
        return 0
    }

    /// Whether a failure was handed out: nothing more will be.
    var hasFailed: Bool {
        if case .failed = phase { return true }
        return false
    }

    /// Adds received bytes.
    mutating func append(_ bytes: some Sequence<UInt8>) {
        guard !hasFailed else { return }
        buffer.append(contentsOf: bytes)
    }

    /// The next event, or `nil` while only more input can produce one.
    mutating func next() -> Event? {
        while true {
            switch phase {
            case .failed:
                return nil
            case .requestLine:
                guard let line = takeLine(limit: limits.maximumRequestLine) else {
                    return overLimit(limits.maximumRequestLine) ? fail(.requestLineTooLong(limit: limits.maximumRequestLine)) : nil
                }
                // RFC 9112 §2.2: empty lines before a request line are ignored.
                if line.isEmpty { continue }
                if line.count > limits.maximumRequestLine { return fail(.requestLineTooLong(limit: limits.maximumRequestLine)) }
                switch Self.parseRequestLine(line) {
                case .success(let request): phase = .headers(request, bytes: 0)
                case .failure(let failure): return fail(failure)
                }
            case .headers(var request, let bytes):
                let room = limits.maximumHeaderBytes - bytes
                guard let line = takeLine(limit: room) else {
                    return overLimit(room) ? fail(.headersTooLarge("the header fields are larger than \(limits.maximumHeaderBytes) bytes")) : nil
                }
                let used = bytes + line.count + 2
                if used > limits.maximumHeaderBytes {
                    return fail(.headersTooLarge("the header fields are larger than \(limits.maximumHeaderBytes) bytes"))
                }
                if !line.isEmpty {
                    guard request.headers.count < limits.maximumHeaderCount else {
                        return fail(.headersTooLarge("more than \(limits.maximumHeaderCount) header fields"))
                    }
                    switch Self.parseHeader(line) {
                    case .success(let field): request.headers.append(field)
                    case .failure(let failure): return fail(failure)
                    }
                    phase = .headers(request, bytes: used)
                    continue
                }
                switch framing(of: request) {
                case .failure(let failure):
                    return fail(failure)
                case .success(let length):
                    phase = .body(request, length: length)
                    if length > 0, bufferedCount < length, request.header("expect")?.lowercased() == "100-continue" {
                        return .continueExpected
                    }
                }
            case .body(var request, let length):
                guard bufferedCount >= length else { return nil }
                request.body = Array(buffer[start..<start + length])
                start += length
                searched = 0
                compact()
                phase = .requestLine
                return .request(request)
            }
        }
    }

    private mutating func fail(_ failure: HTTPFailure) -> Event {
        phase = .failed
        buffer = []
        start = 0
        searched = 0
        return .failure(failure)
    }

    /// Whether the unterminated line held is already longer than `limit`.
    private func overLimit(_ limit: Int) -> Bool {
        // A trailing CR may belong to the CRLF still to come.
        let held = bufferedCount - (buffer.last == UInt8(ascii: "\r") ? 1 : 0)
        return held > limit
    }

    /// Takes one line ending in LF (a CR before it is dropped); `nil` without a whole line.
    private mutating func takeLine(limit: Int) -> ArraySlice<UInt8>? {
        let from = start + searched
        guard let newline = buffer[from...].firstIndex(of: UInt8(ascii: "\n")) else {
            searched = bufferedCount
            return nil
        }
        var end = newline
        if end > start, buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        let line = buffer[start..<end]
        start = newline + 1
        searched = 0
        return line
    }

    private mutating func compact() {
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 64 << 10)
            start = 0
        } else if start >= 4096, start * 2 >= buffer.count {
            buffer.removeFirst(start)
            start = 0
        }
    }
}
