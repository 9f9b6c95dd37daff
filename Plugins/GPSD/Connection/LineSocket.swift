import Glibc
import Synchronization
import SwitchyardIO

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

/// A client stream socket whose lines are read on the process's event loop.
///
/// Connecting and reading never block a thread: the loop connects without blocking (each
/// resolved address within the timeout) and reads when the socket is ready. ``close()`` takes
/// effect on the loop's next turn. Memory is bounded: one ``LineFramer`` per connection, and
/// the loop's one read buffer.
///
/// Reading follows the consumer: after each chunk the loop asks `shouldRead` and stops reading
/// while it says no, so the kernel's socket buffer, and then gpsd, hold what the bus has not
/// taken yet; ``resumeReading()`` makes the loop ask again.
final class LineSocket: Sendable {
    /// Limits of a connection.
    struct Options: Sendable, Hashable {
        /// How long connecting may take, per resolved address.
        var connectTimeout: Duration
        /// The longest line delivered, in bytes; longer lines are skipped and reported.
        var maximumLineLength: Int
    }

    private struct State: Sendable {
        var connected: Int32?
        var isClosed = false
    }

    private let state = Mutex(State())
    /// Tells the loop side to close; `nil` when the loop never started.
    private let closeSignal: LoopSignal?
    /// Tells the loop side to ask `shouldRead` again; `nil` when the loop never started.
    private let flowSignal: LoopSignal?

    private init(closeSignal: LoopSignal?, flowSignal: LoopSignal?) {
        self.closeSignal = closeSignal
        self.flowSignal = flowSignal
    }

    /// Starts connecting to `endpoint` on the event loop and returns at once; `events` is
    /// called on the loop's thread for every report, in order, and must not block.
    /// `shouldRead` is asked on the loop's thread after each chunk read (whose lines were all
    /// reported) and after ``resumeReading()``; while it answers `false` nothing is read.
    /// Default: always read.
    static func open(
        _ endpoint: GPSDEndpoint, options: Options, events: @escaping @Sendable (LineSocketEvent) -> Void,
        shouldRead: @escaping @Sendable () -> Bool = { true }
    ) -> LineSocket {
        let loop: EventLoop
        do {
            loop = try EventLoop.shared()
        } catch {
            let socket = LineSocket(closeSignal: nil, flowSignal: nil)
            socket.state.withLock { $0.isClosed = true }
            events(.closed(.system("epoll_create1", errno: error.errno ?? EMFILE)))
            return socket
        }
        let socket = LineSocket(closeSignal: loop.makeSignal(), flowSignal: loop.makeSignal())
        loop.execute { thread in
            LineSocketHandler.start(socket, endpoint: endpoint, options: options, events: events,
                                    shouldRead: shouldRead, on: thread)
        }
        return socket
    }

    /// Writes `bytes` without blocking; `false` when not connected, closed, or the kernel
    /// buffer cannot take them all at once.
    func send(_ bytes: [UInt8]) -> Bool {
        state.withLock { state in
            guard !state.isClosed, let socket = state.connected else { return false }
            var offset = 0
            while offset < bytes.count {
                let written = bytes.withUnsafeBytes { Sockets.send(socket, UnsafeRawBufferPointer(rebasing: $0[offset...])) }
                guard let written, written > 0 else { return false }
                offset += written
            }
            return true
        }
    }

    /// Stops the connection: the loop closes the socket without reporting more. Safe to call
    /// any number of times, from anywhere.
    func close() {
        closeSignal?.fire()
    }

    /// Makes the loop ask `shouldRead` again, so a paused connection reads on once the
    /// consumer has caught up. Safe to call any number of times, from anywhere.
    func resumeReading() {
        flowSignal?.fire()
    }

    /// Records the connected socket for ``send(_:)``; `false` when already closed.
    fileprivate func markConnected(_ socket: Int32) -> Bool {
        state.withLock { state in
            guard !state.isClosed else { return false }
            state.connected = socket
            return true
        }
    }

    /// Ends sending before the socket is closed: a `send` after this fails, and none is in
    /// progress once it returns (sends hold the lock).
    fileprivate func markClosed() {
        state.withLock { state in
            state.isClosed = true
            state.connected = nil
        }
    }

    fileprivate var signal: LoopSignal? { closeSignal }
    fileprivate var flow: LoopSignal? { flowSignal }
}

/// The loop side of a ``LineSocket``: connects, frames lines and reports.
private final class LineSocketHandler: StreamHandler {
    private let socket: LineSocket
    private let endpoint: GPSDEndpoint
    private let options: LineSocket.Options
    private let events: @Sendable (LineSocketEvent) -> Void
    private let shouldRead: @Sendable () -> Bool
    private let thread: LoopThread
    private var connector: Connector?
    private var channel: SocketChannel?
    private var framer: LineFramer
    private var done = false

    private init(
        _ socket: LineSocket, endpoint: GPSDEndpoint, options: LineSocket.Options,
        events: @escaping @Sendable (LineSocketEvent) -> Void, shouldRead: @escaping @Sendable () -> Bool,
        thread: LoopThread
    ) {
        self.socket = socket
        self.endpoint = endpoint
        self.options = options
        self.events = events
        self.shouldRead = shouldRead
        self.thread = thread
        framer = LineFramer(maximumLineLength: options.maximumLineLength)
    }

    static func start(
        _ socket: LineSocket, endpoint: GPSDEndpoint, options: LineSocket.Options,
        events: @escaping @Sendable (LineSocketEvent) -> Void, shouldRead: @escaping @Sendable () -> Bool,
        on thread: LoopThread
    ) {
        let handler = LineSocketHandler(socket, endpoint: endpoint, options: options, events: events,
                                        shouldRead: shouldRead, thread: thread)
        // The signal handlers keep the handler alive until it is done.
        if let signal = socket.signal { thread.setSignalHandler(signal) { handler.finish(nil) } }
        if let flow = socket.flow { thread.setSignalHandler(flow) { handler.followConsumer() } }
        let target: SocketEndpoint = switch endpoint {
        case .tcp(let host, let port): .tcp(host: host, port: port)
        case .unix(let path): .unix(path: path)
        }
        handler.connector = Connector.connect(to: target, timeout: options.connectTimeout, on: thread) { result in
            handler.connector = nil
            handler.connected(result)
        }
    }

    private func connected(_ result: Result<Int32, IOError>) {
        switch result {
        case .failure(let error):
            finish(LineSocketError.connecting(endpoint, error, timeout: options.connectTimeout))
        case .success(let descriptor):
            guard !done, socket.markConnected(descriptor) else {
                Glibc.close(descriptor)
                return
            }
            do {
                let channel = try SocketChannel(descriptor: descriptor, on: thread)
                channel.handler = self
                self.channel = channel
                followConsumer()
            } catch {
                socket.markClosed()
                Glibc.close(descriptor)
                finish(.system("epoll_ctl", errno: error.errno ?? EINVAL))
                return
            }
            events(.connected)
        }
    }

    func received(_ bytes: UnsafeRawBufferPointer) {
        framer.append(bytes) { output in
            switch output {
            case .line(let line): events(.line(line))
            case .discarded(let byteCount): events(.discardedLine(byteCount: byteCount))
            }
        }
        followConsumer()
    }

    /// Reads while the consumer keeps up, and not while it is behind.
    private func followConsumer() {
        guard !done, let channel else { return }
        let wanted = shouldRead()
        if channel.isReading != wanted { channel.isReading = wanted }
    }

    func receivedEnd(error: IOError?) {
        finish(error.map { .read(endpoint, errno: $0.errno ?? EIO) } ?? .endOfStream(endpoint))
    }

    func writable() {}

    /// Closes everything; reports `failure` unless the owner closed (`nil`).
    private func finish(_ failure: LineSocketError?) {
        guard !done else { return }
        done = true
        connector?.cancel()
        connector = nil
        // Closed before `closed` is reported, so a `send` after the report fails as documented.
        socket.markClosed()
        channel?.close()
        channel = nil
        if let signal = socket.signal { thread.removeSignal(signal) }
        if let flow = socket.flow { thread.removeSignal(flow) }
        if let failure { events(.closed(failure)) }
    }
}

extension LineSocketError {
    /// The error for a failed connect to `endpoint`.
    static func connecting(_ endpoint: GPSDEndpoint, _ error: IOError, timeout: Duration) -> LineSocketError {
        if error.isTimeout { return .timeout(endpoint, after: timeout) }
        if let (_, limit) = error.pathLength, case .unix(let path) = endpoint { return .pathTooLong(path, limit: limit) }
        if let reason = error.resolveReason { return .resolve(endpoint, reason) }
        let code = error.errno ?? EIO
        return error.call == "connect" ? .connect(endpoint, errno: code) : .system(error.call ?? "connect", errno: code)
    }
}
