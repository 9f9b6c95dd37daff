import Glibc
import SwitchyardIO

/// The HTTP server's listening TCP socket.
enum TCPListener {
    /// A non-blocking socket listening on `host` (a numeric IPv4 or IPv6 address) and `port`
    /// (0: the system picks one), with `SO_REUSEADDR` so a restarted bus can listen at once.
    /// Returns the socket and the port it listens on.
    /// - Throws: ``ListenFailure`` naming the failed call (the port in use, say).
    static func listen(host: String, port: Int, backlog: Int32) throws(ListenFailure) -> (descriptor: Int32, port: Int) {
        var storage = sockaddr_storage()
        let family: Int32
        let length: socklen_t
        var v4 = sockaddr_in()
        var v6 = sockaddr_in6()
        if inet_pton(AF_INET, host, &v4.sin_addr) == 1 {
            family = AF_INET
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = UInt16(port).bigEndian
            length = socklen_t(MemoryLayout<sockaddr_in>.size)
            withUnsafeMutableBytes(of: &storage) { target in withUnsafeBytes(of: &v4) { target.copyMemory(from: $0) } }
        } else if inet_pton(AF_INET6, host, &v6.sin6_addr) == 1 {
            family = AF_INET6
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = UInt16(port).bigEndian
            length = socklen_t(MemoryLayout<sockaddr_in6>.size)
            withUnsafeMutableBytes(of: &storage) { target in withUnsafeBytes(of: &v6) { target.copyMemory(from: $0) } }
        } else {
            throw ListenFailure(description: "\(host) is not a numeric address")
        }
        let descriptor: Int32
        do {
            descriptor = try Sockets.stream(family: family)
        } catch {
            throw ListenFailure(description: "cannot create a socket: \(IOError.text(error.errno ?? 0))")
        }
        var on: Int32 = 1
        _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        var boundLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let ok = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(descriptor, address, length) == 0 && Glibc.listen(descriptor, backlog) == 0
                    && getsockname(descriptor, address, &boundLength) == 0
            }
        }
        guard ok else {
            let reason = IOError.text(errno)
            close(descriptor)
            throw ListenFailure(description: "cannot listen on \(host.contains(":") ? "[\(host)]" : host):\(port): \(reason)")
        }
        let bound = withUnsafeBytes(of: &storage) { raw -> UInt16 in
            family == AF_INET ? raw.load(as: sockaddr_in.self).sin_port : raw.load(as: sockaddr_in6.self).sin6_port
        }
        return (descriptor, Int(UInt16(bigEndian: bound)))
    }
}
