import Foundation
import SwitchyardTestSupport
import Testing

/// A request body up to the 1 MiB limit is read whole, however far past the connection's
/// read-ahead it goes, and its action is journaled as sent.
@Suite(.serialized)
struct HTTPBodyTests {
    /// Bodies of 100 KiB to just under 1 MiB, each with a request pipelined behind it, are
    /// dispatched (not timed out), and each payload is journaled whole.
    @Test(.scaledTimeLimit(minutes: 2)) func bodiesUpToTheLimitAreRead() async throws {
        let (bus, port) = try await RunningBus.startServingHTTP()
        var expected: [Int: Int] = [:]
        for size in [100 << 10, 200 << 10, 512 << 10, (1 << 20) - 100] {
            let text = String(repeating: "x", count: size - 60)
            let body = #"{"type":"upload/sent","payload":{"text":"\#(text)"}}"#
            let (dispatched, health) = try await onThread { () throws -> (HTTPTestClient.Response?, HTTPTestClient.Response?) in
                let client = try HTTPTestClient(port: port)
                client.send("POST /api/dispatch HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "Content-Length: \(body.utf8.count)\r\n\r\n" + body + "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                return (client.readResponse(), client.readResponse())
            }
            #expect(dispatched?.status == 200, "\(body.utf8.count) bytes: \(dispatched?.text.prefix(200) ?? "no response")")
            #expect(health?.status == 200)
            if let id = dispatched?.json["id"] as? Int { expected[id] = text.count }
        }
        #expect(expected.count == 4)
        for action in try await journalActions(bus) {
            guard let id = action["id"] as? Int, let length = expected[id] else { continue }
            #expect(((action["payload"] as? [String: Any])?["text"] as? String)?.count == length)
            expected[id] = nil
        }
        #expect(expected.isEmpty, "not journaled: \(expected.keys.sorted())")
        #expect(await bus.stop() == 0)
    }
}
