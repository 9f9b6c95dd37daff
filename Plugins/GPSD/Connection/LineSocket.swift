#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Foundation
import Synchronization

/// What a ``LineSocket`` reports, in order: `connected` (unless connecting fails), then lines,
/// then `closed` — except after ``LineSocket/close()``, which ends the reports silently.
enum LineSocketEvent: Sendable, Hashable {
    /// The connection is established; ``LineSocket/send(_:)`` works from now on.
    case connected
    /// A complete line, without `\r\n`.
    case line([UInt8])
    /// A line longer than the limit was skipped; `byteCount` is its length.
    case discardedLine(byteCount: Int)
    /// Connecting failed or the connection ended; nothing follows.
    case closed(LineSocketError)
}

/// A client stream socket whose lines are read on a dedicated thread.
///
/// Connecting and reading block that thread in `poll` — never a thread of the cooperative pool
/// — and a wake-up socket in the same `poll` makes ``close()`` take effect at once. Memory is
/// bounded: one read buffer and one ``LineFramer`` per connection.
final class LineSocket: Sendable {
    /// Limits of a connection.
    struct Options: Sendable, Hashable {
        /// How long connecting may take, per resolved address.
        var connectTimeout: Duration
        /// The longest line delivered, in bytes; longer lines are skipped and reported.
        var maximumLineLength: Int
        /// The size of the read buffer. Default: 16 KiB.
        var readChunkSize: Int = 16 * 1024
    }

    private struct State: Sendable {
        var connected: Int32?
        var wakeWrite: Int32
        var isClosed = false
    }

    private let state: Mutex<State>

    private init(wakeWrite: Int32) {
        state = Mutex(State(wakeWrite: wakeWrite))
    }

    /// Starts connecting to `endpoint` on a new thread and returns at once; `events` is called
    /// on that thread for every report, in order.
    static func open(
        _ endpoint: GPSDEndpoint, options: Options, events: @escaping @Sendable (LineSocketEvent) -> Void
    ) -> LineSocket {
        // A socket pair rather than a pipe: it takes close-on-exec and non-blocking atomically,
        // so a child process spawned meanwhile never inherits it.
        var wakeEnds: [Int32] = [-1, -1]
        let flags = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        guard socketpair(AF_UNIX, flags, 0, &wakeEnds) == 0 else {
            let socket = LineSocket(wakeWrite: -1)
            socket.state.withLock { $0.isClosed = true }
            events(.closed(.system("socketpair", errno: errno)))
            return socket
        }
        let socket = LineSocket(wakeWrite: wakeEnds[1])
        let wakeRead = wakeEnds[0]
        let thread = Thread {
            socket.serve(endpoint, options: options, wakeRead: wakeRead, events: events)
        }
        thread.name = "switchyard-gpsd"
        thread.start()
        return socket
    }

    /// Writes `bytes` without blocking; `false` when not connected, closed, or the kernel
    /// buffer cannot take them all at once.
    func send(_ bytes: [UInt8]) -> Bool {
        state.withLock { state in
            guard !state.isClosed, let socket = state.connected else { return false }
            var offset = 0
            while offset < bytes.count {
                let written = bytes.withUnsafeBytes { buffer in
                    Glibc.send(socket, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
                }
                if written < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += written
            }
            return true
        }
    }

    /// Stops the connection: the thread wakes, closes the socket and exits without reporting
    /// more. Safe to call any number of times, from anywhere.
    func close() {
        state.withLock { state in
            guard !state.isClosed else { return }
            var byte: UInt8 = 1
            _ = Glibc.send(state.wakeWrite, &byte, 1, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
        }
    }

    private func serve(
        _ endpoint: GPSDEndpoint, options: Options, wakeRead: Int32, events: @Sendable (LineSocketEvent) -> Void
    ) {
        var failure: LineSocketError?
        switch SocketConnector.connect(to: endpoint, timeout: options.connectTimeout, wake: wakeRead) {
        case .interrupted:
            break
        case .failed(let error):
            failure = error
        case .connected(let socket):
            state.withLock { $0.connected = socket }
            events(.connected)
            failure = readLines(from: socket, endpoint, options: options, wakeRead: wakeRead, events: events)
        }
        // Closed before `closed` is reported, so a `send` after the report fails as documented.
        state.withLock { state in
            state.isClosed = true
            if let socket = state.connected { Glibc.close(socket) }
            state.connected = nil
            Glibc.close(state.wakeWrite)
        }
        Glibc.close(wakeRead)
        if let failure { events(.closed(failure)) }
    }

    /// Reads until the peer closes, an error, or a wake-up; returns the error to report, `nil`
    /// after a wake-up.
    private func readLines(
        from socket: Int32, _ endpoint: GPSDEndpoint, options: Options, wakeRead: Int32,
        events: @Sendable (LineSocketEvent) -> Void
    ) -> LineSocketError? {
        var framer = LineFramer(maximumLineLength: options.maximumLineLength)
        var buffer = [UInt8](repeating: 0, count: max(1, options.readChunkSize))
        var descriptors = [
            pollfd(fd: socket, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            descriptors[0].revents = 0
            descriptors[1].revents = 0
            if poll(&descriptors, 2, -1) < 0 {
                if errno == EINTR { continue }
                return .system("poll", errno: errno)
            }
            if descriptors[1].revents != 0 { return nil }
            guard descriptors[0].revents != 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { read(socket, $0.baseAddress, $0.count) }
            if count == 0 { return .endOfStream(endpoint) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return .read(endpoint, errno: errno)
            }
            framer.append(buffer[..<count]) { output in
                switch output {
                case .line(let line): events(.line(line))
                case .discarded(let byteCount): events(.discardedLine(byteCount: byteCount))
                }
            }
        }
    }
}
