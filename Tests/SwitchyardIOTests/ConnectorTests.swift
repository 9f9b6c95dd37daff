import Foundation
import Glibc
import SwitchyardTestSupport
import Testing
@testable import SwitchyardIO

/// Connecting and accepting on the loop, with real sockets.
struct ConnectorTests {
    /// A Unix connect reaches an acceptor on the same loop and bytes flow both ways.
    @Test func unixConnectAndAccept() async throws {
        let loop = try EventLoop(name: "test.connect")
        let path = temporaryPath("accept")
        defer { unlink(path) }
        let listener = try listen(unixPath: path)
        defer { Glibc.close(listener) }
        let seen = Recorder<String>()
        let acceptor = Recorder<Bool>()
        loop.execute { thread in
            let accepting = try? Acceptor(listener: listener, on: thread) { event in
                guard case .connection(let descriptor) = event,
                      let channel = try? SocketChannel(descriptor: descriptor, on: thread) else { return seen.append("unexpected") }
                channel.handler = LineEcho(channel: channel)
            }
            acceptor.append(accepting != nil)
            Connector.connect(to: .unix(path: path), timeout: .seconds(30), on: thread) { result in
                guard case .success(let descriptor) = result,
                      let channel = try? SocketChannel(descriptor: descriptor, on: thread) else { return seen.append("failed \(result)") }
                channel.handler = Collector(channel: channel, seen: seen)
                _ = Array("hi\n".utf8).withUnsafeBytes { channel.write($0) }
                // Keep the acceptor alive as long as the test needs it.
                withExtendedLifetime(accepting) {}
            }
        }
        await waitUntil("the echo came back") { seen.all.joined() == "> hi\n" }
        #expect(acceptor.all == [true])
        await loop.shutDown()
    }

    /// Failures come back as errors: a missing socket file, a closed TCP port, a path that
    /// does not fit, a host that does not resolve.
    @Test(arguments: [
        SocketEndpoint.unix(path: "/nonexistent/switchyard-io-test.sock"),
        .unix(path: "/tmp/" + String(repeating: "p", count: 200)),
        .tcp(host: "127.0.0.1", port: 1),
        .tcp(host: "no-such-host.invalid", port: 80),
    ])
    func failures(endpoint: SocketEndpoint) async throws {
        let loop = try EventLoop(name: "test.fail")
        let seen = Recorder<String>()
        loop.execute { thread in
            Connector.connect(to: endpoint, timeout: .seconds(30), on: thread) { result in
                switch result {
                case .success(let descriptor):
                    Glibc.close(descriptor)
                    seen.append("connected")
                case .failure(let error):
                    seen.append("\(error)")
                }
            }
        }
        await waitUntil("the attempt ended") { seen.count == 1 }
        let text = try #require(seen.all.first)
        switch endpoint {
        case .unix(let path) where path.count > 100: #expect(text.contains("bytes long"))
        case .unix: #expect(text.contains(IOError.text(ENOENT)))
        case .tcp(_, 1): #expect(text.contains(IOError.text(ECONNREFUSED)))
        case .tcp: #expect(text.contains("cannot resolve"))
        }
        await loop.shutDown()
    }

    /// A TCP peer that never completes the handshake (its backlog is full) times out.
    @Test func connectTimesOut() async throws {
        let loop = try EventLoop(name: "test.timeout")
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { Glibc.close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                _ = bind(listener, pointer, length)
                _ = Glibc.listen(listener, 0)
                _ = getsockname(listener, pointer, &length)
            }
        }
        let port = Int(UInt16(bigEndian: address.sin_port))
        // Fill the accept queue so the next handshake is never answered.
        var fillers: [Int32] = []
        defer { for filler in fillers { Glibc.close(filler) } }
        let seen = Recorder<String>()
        for _ in 0..<8 where seen.count == 0 {
            let filler = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            fillers.append(filler)
            _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(filler, $0, length) } }
        }
        loop.execute { thread in
            Connector.connect(to: .tcp(host: "127.0.0.1", port: port), timeout: .milliseconds(300), on: thread) { result in
                if case .failure(let error) = result { seen.append(error.isTimeout ? "timeout" : "\(error)") } else { seen.append("connected") }
            }
        }
        await waitUntil("the attempt ended") { seen.count == 1 }
        #expect(seen.all == ["timeout"])
        await loop.shutDown()
    }
}

/// A listening Unix socket at `path`, non-blocking.
func listen(unixPath path: String) throws -> Int32 {
    let descriptor = try Sockets.stream(family: AF_UNIX)
    try UnixAddress.with(path) { (address, length) throws(IOError) in
        guard bind(descriptor, address, length) == 0, Glibc.listen(descriptor, 16) == 0 else {
            throw IOError.system("bind", errno: errno)
        }
    }
    return descriptor
}

/// A fresh path in the temporary directory.
func temporaryPath(_ name: String) -> String {
    "/tmp/sy-io-\(name)-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
}
