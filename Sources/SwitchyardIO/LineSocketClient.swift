import Glibc
import Synchronization

/// A blocking client of a newline-delimited protocol on a Unix stream socket: the command
/// line's clients of a running bus and the tests that talk to its control socket.
///
/// Every call blocks its thread (`poll`, `send`, `recv`), so run it on a thread of its own,
/// never on the cooperative pool. Received bytes wait in one buffer that grows to the longest
/// line seen; a line longer than `maximumLineLength` is refused rather than buffered without
/// bound. Safe to share between threads: reads take a lock, writes go straight to the socket.
package final class LineSocketClient: Sendable {
    /// Why a call failed; `code` is the `errno` when one caused it.
    package struct Failure: Error, CustomStringConvertible {
        package var code: Int32?
        package var description: String
        /// Whether a read gave up because its time ran out.
        package var timedOut = false
    }

    /// Received bytes: lines from `start` to `end` not handed out yet.
    private struct Received: Sendable {
        var bytes = [UInt8](repeating: 0, count: 64 << 10)
        var start = 0
        var end = 0
    }

    /// The connected socket.
    package let descriptor: Int32
    /// The longest line ``readLine(timeout:)`` accepts. Default: 64 MiB.
    package let maximumLineLength: Int
    private let received = Mutex(Received())

    /// Connects to the socket at `path`.
    /// - Throws: ``Failure`` with `code` `ENOENT` or `ECONNREFUSED` when nothing listens there,
    ///   or another code when the socket cannot be made or reached; without a code when the
    ///   path is empty or too long for a socket address.
    package init(path: String, maximumLineLength: Int = 64 << 20) throws(Failure) {
        guard let made = try? UnixAddress.make(path) else {
            throw Failure(description: path.isEmpty ? "the socket path is empty" : "the socket path \(path) is too long")
        }
        var address = made.address
        let length = made.length
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(code: errno, description: "cannot create a socket: \(String(cString: strerror(errno)))") }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, length) }
        }
        guard connected == 0 else {
            let code = errno
            close(descriptor)
            throw Failure(code: code, description: "cannot connect to \(path): \(String(cString: strerror(code)))")
        }
        self.descriptor = descriptor
        self.maximumLineLength = maximumLineLength
    }

    deinit {
        close(descriptor)
    }

    /// Writes all of `bytes`, retrying short writes; never raises `SIGPIPE`.
    /// - Throws: ``Failure`` when the peer closed the connection or the write failed.
    package func write(_ bytes: some Collection<UInt8>) throws(Failure) {
        let bytes = Array(bytes)
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent < 0, errno == EINTR { continue }
            guard sent > 0 else { throw Failure(code: errno, description: "the connection closed: \(String(cString: strerror(errno)))") }
            offset += sent
        }
    }

    /// The next line without its newline; `nil` when the peer closed the connection (a
    /// partial last line is dropped). Waits at most `timeout`, or without limit when `nil`.
    /// - Throws: ``Failure`` when the time runs out, reading fails, or a line grows past
    ///   ``maximumLineLength``.
    package func readLine(timeout: Duration?) throws(Failure) -> ArraySlice<UInt8>? {
        let deadline = timeout.map { ContinuousClock.now.advanced(by: $0) }
        while true {
            if let line = takeLine() { return line }
            var wait: Int32 = -1
            if let deadline, let timeout {
                let remaining = ContinuousClock.now.duration(to: deadline)
                guard remaining > .zero else { throw Failure(description: "no line within \(timeout)", timedOut: true) }
                let (seconds, attoseconds) = remaining.components
                wait = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
            }
            var interest = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&interest, 1, wait)
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { continue }
            guard try receive() > 0 else { return nil }
        }
    }

    /// Half-closes the connection: the peer sees the end of what this side sends.
    package func finishWriting() {
        shutdown(descriptor, Int32(SHUT_WR))
    }

    /// A complete line from the buffer, if one is there.
    private func takeLine() -> ArraySlice<UInt8>? {
        received.withLock { received in
            let (start, end) = (received.start, received.end)
            // memchr: a busy test reads hundreds of thousands of lines through here.
            let newline = received.bytes.withUnsafeBufferPointer { buffer -> Int? in
                guard end > start, let hit = memchr(buffer.baseAddress! + start, 10, end - start) else { return nil }
                return UnsafeRawPointer(hit) - UnsafeRawPointer(buffer.baseAddress!)
            }
            guard let newline else { return nil }
            received.start = newline + 1
            return received.bytes[start..<newline]
        }
    }

    /// Reads what the socket has into the buffer: the count read, 0 at the end of the stream.
    /// - Throws: ``Failure`` when reading failed or the pending line is too long.
    private func receive() throws(Failure) -> Int {
        try received.withLock { received throws(Failure) -> Int in
            if received.start > 0 {
                // The partial line moves to the front; the buffer grows only for longer lines.
                let pending = received.end - received.start
                received.bytes.withUnsafeMutableBufferPointer { buffer in
                    _ = memmove(buffer.baseAddress!, buffer.baseAddress! + received.start, pending)
                }
                received.start = 0
                received.end = pending
            }
            if received.end == received.bytes.count {
                guard received.bytes.count <= maximumLineLength else {
                    throw Failure(description: "a line longer than \(maximumLineLength) bytes")
                }
                received.bytes.append(contentsOf: repeatElement(0, count: received.bytes.count))
            }
            let end = received.end
            var count: Int
            repeat {
                count = received.bytes.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress! + end, $0.count - end, 0) }
            } while count < 0 && errno == EINTR
            guard count >= 0 else { throw Failure(code: errno, description: "reading failed: \(String(cString: strerror(errno)))") }
            received.end += count
            return count
        }
    }
}
