#if canImport(Glibc)
import Glibc
#endif
import Foundation
import SwitchyardIO

/// A one-connection stream server on 127.0.0.1 or a Unix socket, for socket tests; blocking
/// calls run on their own threads.
final class TestServer: Sendable {
    private let listener: Int32
    /// The TCP port, for a TCP server.
    let port: Int
    /// The socket path, for a Unix server.
    let path: String?

    private init(listener: Int32, port: Int, path: String?) {
        self.listener = listener
        self.port = port
        self.path = path
    }

    /// Listens on a free port on 127.0.0.1.
    static func tcp() -> TestServer {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                _ = bind(listener, generic, length)
                _ = getsockname(listener, generic, &length)
            }
        }
        listen(listener, 4)
        return TestServer(listener: listener, port: Int(UInt16(bigEndian: address.sin_port)), path: nil)
    }

    /// Listens on a Unix socket at `path`.
    static func unix(path: String) -> TestServer {
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            let bytes = Array(path.utf8)
            buffer.copyBytes(from: bytes)
            buffer[bytes.count] = 0
        }
        withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                _ = bind(listener, generic, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        listen(listener, 4)
        return TestServer(listener: listener, port: 0, path: path)
    }

    /// Accepts one client (waiting on a thread of its own).
    func accept() async -> Client {
        let listener = listener
        return await onThread {
            let socket = Glibc.accept(listener, nil, nil)
            // Not inherited by processes other tests spawn meanwhile (accept4 is not exposed).
            _ = fcntl(socket, F_SETFD, FD_CLOEXEC)
            return Client(socket: socket)
        }
    }

    /// Stops listening and removes the Unix socket file.
    func close() {
        Glibc.close(listener)
        if let path { unlink(path) }
    }

    /// An accepted connection.
    final class Client: Sendable {
        let socket: Int32

        init(socket: Int32) {
            self.socket = socket
        }

        /// Writes `text` entirely.
        func write(_ text: String) {
            let bytes = Array(text.utf8)
            var offset = 0
            while offset < bytes.count {
                let written = bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
                guard written > 0 else { return }
                offset += written
            }
        }

        /// Reads until `count` bytes arrived or the peer closed; returns them as text.
        func read(count: Int) async -> String {
            let socket = socket
            return await onThread {
                var received: [UInt8] = []
                var buffer = [UInt8](repeating: 0, count: 4096)
                while received.count < count {
                    let got = buffer.withUnsafeMutableBytes { Glibc.read(socket, $0.baseAddress, min($0.count, count - received.count)) }
                    guard got > 0 else { break }
                    received += buffer[..<got]
                }
                return String(decoding: received, as: UTF8.self)
            }
        }

        /// Ends the connection: `shutdown` reaches the peer even if a child process of another
        /// test inherited a copy of the descriptor, which `close` alone would not.
        func close() {
            shutdown(socket, Int32(SHUT_RDWR))
            Glibc.close(socket)
        }
    }
}
