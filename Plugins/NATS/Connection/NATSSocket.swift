import Glibc

/// The TCP side of a connection: resolving, connecting within a deadline, and non-blocking
/// reads and writes. Used only on a connection's own thread.
enum NATSSocket {
    /// Resolves `host` and connects to the first address that answers, giving up after
    /// `timeout`, or as soon as `abort` (a descriptor polled for input) becomes readable.
    /// Returns a non-blocking socket with Nagle's algorithm off, since actions are small and
    /// latency matters.
    /// - Throws: ``NATSConnectionError/unreachable(_:)`` or ``NATSConnectionError/timeout(_:)``.
    static func connect(host: String, port: Int, timeout: Duration, abort: Int32) throws(NATSConnectionError) -> Int32 {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_ADDRCONFIG
        var list: UnsafeMutablePointer<addrinfo>?
        let resolved = getaddrinfo(host, String(port), &hints, &list)
        guard resolved == 0, let first = list else {
            throw .unreachable("cannot resolve \"\(host)\": \(String(cString: gai_strerror(resolved)))")
        }
        defer { freeaddrinfo(list) }
        var lastError = "no address for \"\(host)\""
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let address = entry {
            entry = address.pointee.ai_next
            let descriptor = socket(address.pointee.ai_family, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue | SOCK_NONBLOCK.rawValue), 0)
            guard descriptor >= 0 else {
                lastError = errorText(errno)
                continue
            }
            var enabled: Int32 = 1
            setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &enabled, socklen_t(MemoryLayout<Int32>.size))
            if Glibc.connect(descriptor, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 {
                return descriptor
            }
            guard errno == EINPROGRESS else {
                lastError = errorText(errno)
                close(descriptor)
                continue
            }
            switch waitForConnect(descriptor, abort: abort, deadline: deadline, clock: clock) {
            case .connected:
                return descriptor
            case .failed(let reason):
                lastError = reason
                close(descriptor)
            case .timedOut:
                close(descriptor)
                throw .timeout("connecting to \(host):\(port)")
            case .aborted:
                close(descriptor)
                throw .closedByClient
            }
        }
        throw .unreachable("\(host):\(port): \(lastError)")
    }

    private enum ConnectOutcome {
        case connected
        case failed(String)
        case timedOut
        case aborted
    }

    private static func waitForConnect(_ descriptor: Int32, abort: Int32, deadline: ContinuousClock.Instant, clock: ContinuousClock) -> ConnectOutcome {
        while true {
            let remaining = clock.now.duration(to: deadline)
            guard remaining > .zero else { return .timedOut }
            var interests = [
                pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0),
                pollfd(fd: abort, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&interests, 2, milliseconds(remaining))
            if ready < 0, errno == EINTR { continue }
            if interests[1].revents != 0 { return .aborted }
            guard ready > 0 else { continue }
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length)
            return error == 0 ? .connected : .failed(errorText(error))
        }
    }

    /// Reads what is available into `buffer`: the byte count, 0 at the end of the stream,
    /// `nil` when nothing is available yet.
    /// - Throws: ``NATSConnectionError/io(_:)`` when the read fails.
    static func read(_ descriptor: Int32, into buffer: inout [UInt8]) throws(NATSConnectionError) -> Int? {
        let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
        if count >= 0 { return count }
        if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return nil }
        throw .io("read: \(errorText(errno))")
    }

    /// Writes as much of `bytes[offset...]` as the socket takes; returns the count written.
    /// - Throws: ``NATSConnectionError/io(_:)`` when the write fails (never SIGPIPE).
    static func write(_ descriptor: Int32, _ bytes: [UInt8], from offset: Int) throws(NATSConnectionError) -> Int {
        let count = bytes.withUnsafeBytes { buffer in
            send(descriptor, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
        }
        if count >= 0 { return count }
        if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return 0 }
        throw .io("write: \(errorText(errno))")
    }

    /// A poll timeout in whole milliseconds, rounded up, at most a minute.
    static func milliseconds(_ duration: Duration) -> Int32 {
        guard duration > .zero else { return 0 }
        let (seconds, attoseconds) = duration.components
        let total = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(min(total, 60_000))
    }

    static func errorText(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
