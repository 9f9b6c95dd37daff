import Glibc

/// The address of the Unix socket at `path`; tests use paths short enough for `sun_path`.
public func unixSocketAddress(_ path: String) -> sockaddr_un {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { buffer in
        for (index, byte) in path.utf8.prefix(buffer.count - 1).enumerated() { buffer[index] = byte }
    }
    return address
}

/// The address 127.0.0.1:`port`.
public func loopbackAddress(port: Int) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = UInt16(port).bigEndian
    return address
}

/// Calls `body` (`connect` or `bind`) with `address` as a generic `sockaddr` and its length,
/// and returns what it returns.
public func withSocketAddress<Address, Result>(_ address: Address, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
    withUnsafePointer(to: address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<Address>.size)) }
    }
}
