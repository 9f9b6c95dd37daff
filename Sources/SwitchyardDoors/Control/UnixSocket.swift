import Glibc
import SwitchyardIO

/// The control server's listening socket, with failures as text for the bus's errors.
enum UnixSocket {
    /// The address of the socket file at `path`.
    static func address(_ path: String) throws(ListenFailure) -> (sockaddr_un, socklen_t) {
        do {
            return try UnixAddress.make(path)
        } catch {
            let (count, limit) = error.pathLength ?? (0, UnixAddress.capacity)
            throw ListenFailure(description: "the socket path is \(count) bytes long; at most \(limit) fit (choose a shorter dataDirectory)")
        }
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
    static func listen(at path: String, backlog: Int32) throws(ListenFailure) -> Int32 {
        let (address, length) = try address(path)
        if isLive(path) {
            throw ListenFailure(description: "another bus is listening on it")
        }
        if unlink(path) != 0, errno != ENOENT {
            throw ListenFailure(description: "cannot remove the stale socket file: \(IOError.text(errno))")
        }
        let descriptor: Int32
        do {
            descriptor = try Sockets.stream(family: AF_UNIX)
        } catch {
            throw ListenFailure(description: "cannot create a socket: \(IOError.text(error.errno ?? 0))")
        }
        var target = address
        let bound = withUnsafePointer(to: &target) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        // Until listen() no client can connect, so tightening the mode here leaves no window.
        guard bound == 0, chmod(path, 0o600) == 0, Glibc.listen(descriptor, backlog) == 0 else {
            let reason = IOError.text(errno)
            close(descriptor)
            throw ListenFailure(description: "cannot listen: \(reason)")
        }
        return descriptor
    }
}
