import Glibc

/// Where a stream socket connects: a TCP host and port, or a Unix socket path.
package enum SocketEndpoint: Sendable, Hashable, CustomStringConvertible {
    /// A host name or numeric address, and a port.
    case tcp(host: String, port: Int)
    /// A Unix socket's path.
    case unix(path: String)

    package var description: String {
        switch self {
        case .tcp(let host, let port): host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        case .unix(let path): path
        }
    }
}

/// The one place a `sockaddr_un` is built.
package enum UnixAddress {
    /// The most path bytes a `sockaddr_un` holds (its terminating zero excluded).
    package static var capacity: Int { MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1 }

    /// The address of the socket at `path` and its length.
    ///
    /// With `abstract`, a `path` starting with `@` names a socket in Linux's abstract
    /// namespace (spelled with a leading zero byte and no terminator), as systemd's
    /// `NOTIFY_SOCKET` may.
    /// - Throws: ``IOError/pathTooLong(_:byteCount:limit:)`` when `path` is empty or does not
    ///   fit.
    package static func make(_ path: String, abstract: Bool = false) throws(IOError) -> (address: sockaddr_un, length: socklen_t) {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let isAbstract = abstract && path.hasPrefix("@")
        let bytes = isAbstract ? [0] + Array(path.utf8.dropFirst()) : Array(path.utf8)
        guard !bytes.isEmpty, bytes.count <= capacity else {
            throw IOError.pathTooLong(path, byteCount: bytes.count, limit: capacity)
        }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: bytes)
            buffer[bytes.count] = 0
        }
        return (address, socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (isAbstract ? 0 : 1)))
    }

    /// Calls `body` with the address of the socket at `path` and its length.
    /// - Throws: what ``make(_:)`` throws; whatever `body` throws.
    package static func with<Result>(
        _ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) throws(IOError) -> Result
    ) throws(IOError) -> Result {
        var (address, length) = try make(path)
        return try withUnsafePointer(to: &address) { (pointer) throws(IOError) -> Result in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { (generic) throws(IOError) -> Result in
                try body(generic, length)
            }
        }
    }
}

/// Socket calls shared by every adapter.
package enum Sockets {
    /// A new non-blocking, close-on-exec stream socket of `family`.
    /// - Throws: ``IOError`` when the system refuses (out of descriptors, say).
    package static func stream(family: Int32) throws(IOError) -> Int32 {
        let flags = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let descriptor = socket(family, flags, 0)
        guard descriptor >= 0 else { throw IOError.system("socket", errno: errno) }
        return descriptor
    }

    /// Makes an accepted or inherited descriptor non-blocking and close-on-exec.
    package static func prepare(_ descriptor: Int32) {
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    }

    /// The pending error of a socket whose connect finished (0 when it connected).
    package static func pendingError(_ descriptor: Int32) -> Int32 {
        var error: Int32 = 0
        var size = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &size) == 0 else { return errno }
        return error
    }

    /// Sends without blocking or raising `SIGPIPE`; returns the count sent, 0 when the socket
    /// is full, or `nil` when the peer is gone.
    package static func send(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int? {
        while true {
            let sent = Glibc.send(descriptor, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
            if sent >= 0 { return sent }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK { return 0 }
            return nil
        }
    }
}
