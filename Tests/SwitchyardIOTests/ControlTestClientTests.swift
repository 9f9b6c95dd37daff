import Glibc
import SwitchyardTestSupport
import Testing
@testable import SwitchyardIO

/// The suites' control-socket client (``ControlTestClient``) over a real Unix socket: a read
/// that ran out of time is a failure that says so, never mistaken for the end of the stream,
/// which is `nil`; a socket nobody serves is named in the failure.
struct ControlTestClientTests {
    private typealias Peer = LineSocketClientTests.Peer

    @Test func aQuietPeerIsATimeoutAndItsHangUpTheEnd() async throws {
        let peer = try Peer()
        let spoken = Locked(false)
        peer.serve { connection in
            // Quiet until the client has timed out once, then one line and the end.
            let deadline = TestDeadline(after: .seconds(30))
            while !spoken.withLock({ $0 }), !deadline.hasPassed { usleep(1000) }
            LineSocketClientTests.send("hello\n", to: connection)
        }
        let (quiet, line, end) = try await onThread { () throws -> (ControlTestClient.Failure?, String?, String?) in
            let client = try ControlTestClient(path: peer.path)
            var quiet: ControlTestClient.Failure?
            do {
                _ = try client.readLine(timeout: .milliseconds(20))
            } catch let error as ControlTestClient.Failure {
                quiet = error
            }
            spoken.withLock { $0 = true }
            return (quiet, try client.readLine(), try client.readLine())
        }
        #expect(quiet?.timedOut == true)
        #expect(quiet?.description.contains(peer.path) == true)
        #expect(line == "hello")
        #expect(end == nil)
    }

    @Test func aRequestTheBusHangsUpOnSaysSo() async throws {
        let peer = try Peer()
        peer.serve { _ in }
        let failure = try await onThread { () throws -> ControlTestClient.Failure? in
            let client = try ControlTestClient(path: peer.path)
            do {
                _ = try client.request(#"{"op":"state"}"#)
                return nil
            } catch let error as ControlTestClient.Failure {
                return error
            }
        }
        // Refused at the write or answered by the end of the stream: either way named, and
        // not a timeout.
        #expect(failure?.timedOut == false)
        #expect(failure?.description.contains(peer.path) == true)
    }

    @Test func aSocketNobodyServesIsNamed() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("none.sock")
        let failure = #expect(throws: ControlTestClient.Failure.self) { try ControlTestClient(path: path) }
        #expect(failure?.description.hasPrefix("connect \(path):") == true)
    }
}
