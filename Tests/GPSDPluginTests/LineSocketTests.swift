#if canImport(Glibc)
import Glibc
#endif
import Foundation
@testable import GPSDPlugin
import SwitchyardBus
import SwitchyardTestSupport
import Testing

/// The POSIX line socket against local TCP and Unix servers.
struct LineSocketTests {
    private static let options = LineSocket.Options(connectTimeout: .seconds(5), maximumLineLength: 64)

    private func open(_ endpoint: GPSDEndpoint, options: LineSocket.Options = options) -> (LineSocket, ActionRecorder) {
        let recorder = ActionRecorder()
        let socket = LineSocket.open(endpoint, options: options) { event in
            switch event {
            case .connected: recorder.record("connected", .null)
            case .line(let bytes): recorder.record("line", .string(String(decoding: bytes, as: UTF8.self)))
            case .discardedLine(let count): recorder.record("discarded", .integer(Int64(count)))
            case .closed(let error): recorder.record("closed", .string(error.description))
            }
        }
        return (socket, recorder)
    }

    private func exchange(_ endpoint: GPSDEndpoint, server: TestServer) async throws {
        let (socket, recorder) = open(endpoint)
        let client = await server.accept()
        #expect(await recorder.wait { $0.contains { $0.event == "connected" } })
        #expect(socket.send(Array("?WATCH;\n".utf8)))
        #expect(await client.read(count: 8) == "?WATCH;\n")
        client.write("{\"class\":\"VERSION\"}\r\n{\"cla")
        client.write("ss\":\"TPV\"}\n" + String(repeating: "x", count: 100) + "\r\nlast\n")
        client.close()
        #expect(await recorder.wait { $0.contains { $0.event == "closed" } })
        #expect(recorder.records.map(\.event) == ["connected", "line", "line", "discarded", "line", "closed"])
        #expect(recorder.payloads("line") == ["{\"class\":\"VERSION\"}", "{\"class\":\"TPV\"}", "last"])
        #expect(recorder.payloads("discarded") == [100])
        #expect(recorder.payloads("closed") == [.string("\(endpoint) closed the connection")])
        #expect(!socket.send(Array("late\n".utf8)))
    }

    /// Over TCP: connect, send, framed lines, an over-long line skipped, the peer's close.
    @Test func tcpExchange() async throws {
        let server = TestServer.tcp()
        defer { server.close() }
        try await exchange(.tcp(host: "127.0.0.1", port: server.port), server: server)
    }

    /// The same over a Unix socket.
    @Test func unixExchange() async throws {
        let path = FileManager.default.temporaryDirectory.path + "/switchyard-gpsd-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
        let server = TestServer.unix(path: path)
        defer { server.close() }
        try await exchange(.unix(path: path), server: server)
    }

    /// Nothing listening: one `closed` naming the endpoint and the system's reason.
    @Test func connectionRefused() async throws {
        let port = try unusedLocalPort()
        let (_, recorder) = open(.tcp(host: "127.0.0.1", port: port))
        #expect(await recorder.wait { !$0.isEmpty })
        #expect(recorder.records.map(\.event) == ["closed"])
        #expect(recorder.payloads("closed") == [.string("cannot connect to 127.0.0.1:\(port): Connection refused")])
    }

    /// A missing Unix socket and an over-long path are reported, not thrown.
    @Test func unixPathProblems() async {
        let (_, missing) = open(.unix(path: "/nonexistent/gpsd.sock"))
        let longPath = "/tmp/" + String(repeating: "d", count: 200)
        let (_, tooLong) = open(.unix(path: longPath))
        #expect(await missing.wait { !$0.isEmpty })
        #expect(await tooLong.wait { !$0.isEmpty })
        #expect(missing.payloads("closed") == [.string("cannot connect to /nonexistent/gpsd.sock: No such file or directory")])
        #expect(tooLong.payloads("closed") == [.string("the socket path \(longPath) is longer than 107 bytes")])
    }

    /// `close()` stops reading at once without a `closed` report, and the peer sees the end.
    @Test func closeIsSilent() async {
        let server = TestServer.tcp()
        defer { server.close() }
        let (socket, recorder) = open(.tcp(host: "127.0.0.1", port: server.port))
        let client = await server.accept()
        #expect(await recorder.wait { $0.contains { $0.event == "connected" } })
        socket.close()
        socket.close()
        #expect(await client.read(count: 1) == "")
        client.write("after close\n")
        client.close()
        #expect(recorder.records.map(\.event) == ["connected"])
        #expect(!socket.send(Array("x".utf8)))
    }
}
