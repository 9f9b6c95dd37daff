#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Opens non-blocking stream sockets with a timeout that a wake-up socket can cut short.
///
/// Runs on the socket's own thread: `getaddrinfo` and `poll` block it, never a task.
enum SocketConnector {
    /// How an attempt ended.
    enum Outcome {
        /// A connected, non-blocking socket the caller now owns.
        case connected(Int32)
        /// The attempt failed.
        case failed(LineSocketError)
        /// The wake-up socket became readable: the owner closed the socket while connecting.
        case interrupted
    }

    /// Connects to `endpoint`, trying each resolved address in turn, each within `timeout`.
    static func connect(to endpoint: GPSDEndpoint, timeout: Duration, wake: Int32) -> Outcome {
        switch endpoint {
        case .tcp(let host, let port):
            return connectTCP(endpoint, host: host, port: port, timeout: timeout, wake: wake)
        case .unix(let path):
            return connectUnix(endpoint, path: path, timeout: timeout, wake: wake)
        }
    }

    private static func connectTCP(
        _ endpoint: GPSDEndpoint, host: String, port: Int, timeout: Duration, wake: Int32
    ) -> Outcome {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            return .failed(.resolve(endpoint, String(cString: gai_strerror(status))))
        }
        defer { freeaddrinfo(list) }
        var lastFailure = LineSocketError.resolve(endpoint, "no addresses")
        var next: UnsafeMutablePointer<addrinfo>? = first
        while let info = next {
            next = info.pointee.ai_next
            let outcome = attempt(
                endpoint, family: info.pointee.ai_family, address: info.pointee.ai_addr,
                length: info.pointee.ai_addrlen, timeout: timeout, wake: wake)
            switch outcome {
            case .connected(let socket):
                var on: Int32 = 1
                _ = setsockopt(socket, SOL_SOCKET, SO_KEEPALIVE, &on, socklen_t(MemoryLayout<Int32>.size))
                return outcome
            case .interrupted:
                return outcome
            case .failed(let error):
                lastFailure = error
            }
        }
        return .failed(lastFailure)
    }

    private static func connectUnix(_ endpoint: GPSDEndpoint, path: String, timeout: Duration, wake: Int32) -> Outcome {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        let bytes = Array(path.utf8)
        guard bytes.count < capacity else { return .failed(.pathTooLong(path, limit: capacity - 1)) }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: bytes)
            buffer[bytes.count] = 0
        }
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                attempt(
                    endpoint, family: AF_UNIX, address: generic,
                    length: socklen_t(MemoryLayout<sockaddr_un>.size), timeout: timeout, wake: wake)
            }
        }
    }

    private static func attempt(
        _ endpoint: GPSDEndpoint, family: Int32, address: UnsafePointer<sockaddr>?, length: socklen_t,
        timeout: Duration, wake: Int32
    ) -> Outcome {
        let flags = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        let socket = Glibc.socket(family, flags, 0)
        guard socket >= 0 else { return .failed(.system("socket", errno: errno)) }
        if Glibc.connect(socket, address, length) == 0 { return .connected(socket) }
        let code = errno
        guard code == EINPROGRESS || code == EINTR else {
            close(socket)
            return .failed(.connect(endpoint, errno: code))
        }
        let outcome = awaitConnection(endpoint, socket: socket, timeout: timeout, wake: wake)
        if case .connected = outcome { return outcome }
        close(socket)
        return outcome
    }

    private static func awaitConnection(_ endpoint: GPSDEndpoint, socket: Int32, timeout: Duration, wake: Int32) -> Outcome {
        var descriptors = [
            pollfd(fd: socket, events: Int16(POLLOUT), revents: 0),
            pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
        ]
        let milliseconds = Int32(clamping: timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        var ready: Int32
        repeat {
            ready = poll(&descriptors, 2, max(0, milliseconds))
        } while ready < 0 && errno == EINTR
        if ready < 0 { return .failed(.system("poll", errno: errno)) }
        if descriptors[1].revents != 0 { return .interrupted }
        if ready == 0 { return .failed(.timeout(endpoint, after: timeout)) }
        var error: Int32 = 0
        var size = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(socket, SOL_SOCKET, SO_ERROR, &error, &size) == 0 else {
            return .failed(.system("getsockopt", errno: errno))
        }
        return error == 0 ? .connected(socket) : .failed(.connect(endpoint, errno: error))
    }
}
