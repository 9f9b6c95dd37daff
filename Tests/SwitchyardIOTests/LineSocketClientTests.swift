import Foundation
import Glibc
import SwitchyardTestSupport
import Testing
@testable import SwitchyardIO

/// The one blocking line client (the command line's and the tests'), against a real Unix socket
/// whose peer is a thread of the test that writes what each case scripts.
struct LineSocketClientTests {
    /// A listening socket in a directory of its own; `serve` runs on a thread with the accepted
    /// connection and closes it when it returns.
    final class Peer: Sendable {
        let directory: TemporaryDirectory
        let path: String
        let listener: Int32

        init() throws {
            directory = try TemporaryDirectory()
            path = directory.path("peer.sock")
            listener = try listen(unixPath: path)
        }

        deinit { close(listener) }

        func serve(_ body: @escaping @Sendable (Int32) -> Void) {
            let listener = self.listener
            Thread.detachNewThread {
                // The listener does not block (it is the event loop tests' too): wait for the
                // client before accepting.
                var interest = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
                guard poll(&interest, 1, Int32(TestTimeouts.scaled(.seconds(30)).components.seconds * 1000)) > 0 else { return }
                let connection = accept(listener, nil, nil)
                guard connection >= 0 else { return }
                body(connection)
                close(connection)
            }
        }
    }

    static func send(_ text: String, to descriptor: Int32) {
        _ = Array(text.utf8).withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Lines split across writes, and several in one write, come out whole and in order; the
    /// end of the stream is `nil`, and a partial last line is not handed out as a line.
    @Test func readsWholeLinesThenTheEnd() async throws {
        let peer = try Peer()
        peer.serve { connection in
            Self.send("{\"a\":", to: connection)
            usleep(20_000)
            Self.send("1}\nsecond\nthi", to: connection)
            usleep(20_000)
            Self.send("rd\npartial", to: connection)
        }
        let lines = try await onThread { () throws -> [String?] in
            let client = try LineSocketClient(path: peer.path)
            return try (0..<4).map { _ in try client.readLine(timeout: TestTimeouts.scaled(.seconds(30))).map { String(decoding: $0, as: UTF8.self) } }
        }
        #expect(lines == ["{\"a\":1}", "second", "third", nil])
    }

    /// What the client writes arrives whole, and a read that sees no line in time says it
    /// timed out rather than that the peer closed.
    @Test func writesWholeAndTimesOut() async throws {
        let peer = try Peer()
        let received = Locked<[UInt8]>([])
        let done = Locked(false)
        peer.serve { connection in
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = recv(connection, &chunk, chunk.count, 0)
                guard count > 0 else { break }
                received.withLock { $0 += chunk[..<count] }
            }
            done.withLock { $0 = true }
        }
        let payload = Array(repeating: UInt8(ascii: "x"), count: 300_000) + [10]
        let timedOut = try await onThread { () throws -> Bool in
            let client = try LineSocketClient(path: peer.path)
            try client.write(payload)
            defer { client.finishWriting() }
            do {
                _ = try client.readLine(timeout: .milliseconds(50))
                return false
            } catch let error as LineSocketClient.Failure {
                return error.timedOut
            }
        }
        #expect(timedOut)
        let deadline = TestDeadline(after: .seconds(30))
        while !done.withLock({ $0 }), !deadline.hasPassed { try await Task.sleep(for: .milliseconds(10)) }
        #expect(received.withLock { $0 } == payload)
    }

    /// A line longer than the client's bound is refused instead of buffered without end.
    @Test func refusesALineLongerThanItsBound() async throws {
        let peer = try Peer()
        peer.serve { connection in
            let chunk = String(repeating: "y", count: 4096)
            for _ in 0..<75 { Self.send(chunk, to: connection) }
            usleep(200_000)
        }
        let failure = try await onThread { () throws -> LineSocketClient.Failure? in
            let client = try LineSocketClient(path: peer.path, maximumLineLength: 100_000)
            do {
                _ = try client.readLine(timeout: TestTimeouts.scaled(.seconds(30)))
                return nil
            } catch let error as LineSocketClient.Failure {
                return error
            }
        }
        #expect(failure?.description.contains("longer than 100000 bytes") == true)
        #expect(failure?.timedOut == false)
    }

    /// Nothing listening is `ENOENT` (no socket file) or `ECONNREFUSED` (a stale one), which
    /// the command line turns into "no bus is listening"; a path too long for an address says so.
    @Test func saysWhyItCannotConnect() throws {
        let directory = try TemporaryDirectory()
        #expect(throws: LineSocketClient.Failure.self) { try LineSocketClient(path: directory.path("none.sock")) }
        do {
            _ = try LineSocketClient(path: directory.path("none.sock"))
            Issue.record("connected to a socket that does not exist")
        } catch {
            #expect(error.code == ENOENT)
        }
        do {
            _ = try LineSocketClient(path: "/" + String(repeating: "d", count: 200))
            Issue.record("connected to a path no socket address holds")
        } catch {
            #expect(error.code == nil)
            #expect(error.description.contains("too long"))
        }
    }
}
