import Glibc

/// The Unix-socket calls of the control server, with failures as text.
enum UnixSocket {
    /// Why a socket call failed.
    struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        var description: String
    }

    /// The address of the socket file at `path`.
    static func address(_ path: String) throws(Failure) -> (sockaddr_un, socklen_t) {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard !bytes.isEmpty, bytes.count < capacity else {
            throw Failure(description: "the socket path is \(bytes.count) bytes long; at most \(capacity - 1) fit (choose a shorter dataDirectory)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in bytes.enumerated() { buffer[index] = byte }
        }
        return (address, socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + 1))
    }

    /// Whether something accepts connections on `path` now.
    static func isLive(_ path: String) -> Bool {
        guard let (address, length) = try? address(path) else { return false }
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var target = address
        let result = withUnsafePointer(to: &target) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, length) }
        }
        return result == 0
    }

    /// A non-blocking listening socket at `path`, mode 0600. A socket file nobody listens on
    /// (left by a bus that was killed) is replaced.
    /// - Throws: ``Failure`` when a live listener holds `path`, or a call fails.
    static func listen(at path: String, backlog: Int32) throws(Failure) -> Int32 {
        let (address, length) = try address(path)
        if isLive(path) {
            throw Failure(description: "another bus is listening on it")
        }
        if unlink(path) != 0, errno != ENOENT {
            throw Failure(description: "cannot remove the stale socket file: \(SystemError.text(errno))")
        }
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "cannot create a socket: \(SystemError.text(errno))") }
        var target = address
        let bound = withUnsafePointer(to: &target) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        // Until listen() no client can connect, so tightening the mode here leaves no window.
        guard bound == 0, chmod(path, 0o600) == 0, Glibc.listen(descriptor, backlog) == 0 else {
            let reason = SystemError.text(errno)
            close(descriptor)
            throw Failure(description: "cannot listen: \(reason)")
        }
        return descriptor
    }

    /// What one `accept` gave.
    enum Accepted {
        /// A connection, non-blocking and close-on-exec.
        case connection(Int32)
        /// No connection is pending.
        case none
        /// The call failed with this `errno` (`EMFILE`/`ENFILE` when out of descriptors).
        case failed(Int32)
    }

    /// Accepts one pending connection as a non-blocking, close-on-exec descriptor.
    static func accept(from listener: Int32) -> Accepted {
        while true {
            let descriptor = Glibc.accept(listener, nil, nil)
            if descriptor >= 0 {
                _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
                _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
                return .connection(descriptor)
            }
            if errno == EINTR || errno == ECONNABORTED { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK { return .none }
            return .failed(errno)
        }
    }

    /// A connected pair of non-blocking sockets, to wake a thread parked in `poll`.
    static func wakePair() throws(Failure) -> (read: Int32, write: Int32) {
        var pair: [Int32] = [-1, -1]
        let flags = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        guard socketpair(AF_UNIX, flags, 0, &pair) == 0 else {
            throw Failure(description: "cannot create a wake-up socket pair: \(SystemError.text(errno))")
        }
        return (pair[0], pair[1])
    }

    /// Sends without raising SIGPIPE; returns the count sent, 0 when the socket is full, or
    /// `nil` when the peer is gone.
    static func send(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int? {
        while true {
            let sent = Glibc.send(descriptor, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
            if sent >= 0 { return sent }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK { return 0 }
            return nil
        }
    }
}
