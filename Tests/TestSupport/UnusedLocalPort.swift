import Foundation
import Glibc

/// Why ``unusedLocalPort()`` found no port.
public struct UnusedLocalPortError: Error, CustomStringConvertible {
    /// The failed call and its errno.
    public let description: String
}

/// A TCP port on 127.0.0.1 where nothing listens now: bound to port 0 to have the kernel pick
/// a free one, then closed. Another process may take it later; tests use it for "refused"
/// or start their own server on it at once.
/// - Throws: ``UnusedLocalPortError`` when the socket cannot be made or bound.
public func unusedLocalPort() throws -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
    guard descriptor >= 0 else { throw UnusedLocalPortError(description: "socket() failed: errno \(errno)") }
    defer { close(descriptor) }
    var address = loopbackAddress(port: 0)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
            bind(descriptor, generic, length) == 0 && getsockname(descriptor, generic, &length) == 0
        }
    }
    guard bound else { throw UnusedLocalPortError(description: "bind() failed: errno \(errno)") }
    return Int(UInt16(bigEndian: address.sin_port))
}

/// Whether something on 127.0.0.1 accepts a TCP connection on `port` now (a server that has
/// started listening).
public func localPortAccepts(_ port: Int) -> Bool {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    return withSocketAddress(loopbackAddress(port: port)) { connect(descriptor, $0, $1) } == 0
}
