import Foundation

/// A plain NATS client on a blocking socket, for tests that must put exact bytes on the wire
/// (a burst larger than one read, a payload the bridge has to refuse).
enum RawNATSClient {
    /// Writes `bytes` to the server on 127.0.0.1:`port` and waits for a `PONG`, so everything
    /// before it has reached the server. `bytes` must begin with `CONNECT` and end with `PING`.
    /// - Throws: `POSIXError` when the connection is refused, or closes before the `PONG`.
    static func send(_ bytes: [UInt8], port: Int) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw POSIXError(.EPIPE) }
            offset += sent
        }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while !String(decoding: received, as: UTF8.self).contains("PONG") {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { throw POSIXError(.ECONNRESET) }
            received += chunk[..<count]
        }
    }

    /// Publishes `payload` on `subject` and waits for the server's `PONG`.
    static func publish(port: Int, subject: String, payload: String) throws {
        let body = Array(payload.utf8)
        let text = "CONNECT {\"verbose\":false,\"pedantic\":false}\r\nPUB \(subject) \(body.count)\r\n\(payload)\r\nPING\r\n"
        try send(Array(text.utf8), port: port)
    }
}
