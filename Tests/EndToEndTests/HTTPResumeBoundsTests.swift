import Foundation
import SwitchyardTestSupport
import Testing

/// An event stream's `Last-Event-ID` comes from outside (any web page can send one): an id
/// the bus never gave out is refused with 400, never an overflow or a stream that silently
/// skips the live actions up to it.
@Suite(.serialized)
struct HTTPResumeBoundsTests {
    /// The largest id, and ids past the last action, as header and as query parameter, get
    /// 400 with a JSON error; the bus serves on and an id it gave out still resumes.
    @Test(.scaledTimeLimit(minutes: 2)) func idsPastTheEndAreRefused() async throws {
        let (bus, port) = try await RunningBus.startServingHTTP()
        let client = try await bus.connect()
        let reply = object(try await onThread { try client.request(#"{"op":"dispatch","action":{"type":"door/open"}}"#) })
        let last = try #require(reply["id"] as? Int)
        let refused: [(String, [String: String])] = [
            ("/api/actions?lastEventId=18446744073709551615", [:]),
            ("/api/actions", ["Last-Event-ID": "18446744073709551615"]),
            ("/api/actions?lastEventId=\(last + 1)", [:]),
            ("/api/actions", ["Last-Event-ID": "\(last + 1000)"]),
        ]
        for (target, headers) in refused {
            let response = try await onThread { try HTTPTestClient.request(port: port, "GET", target, headers: headers) }
            #expect(response.status == 400, "\(target) \(headers): \(response.text)")
            #expect((response.json["error"] as? [String: Any])?["code"] as? String == "invalid-field", "\(response.text)")
        }
        let health = try await onThread { try HTTPTestClient.request(port: port, "GET", "/healthz") }
        #expect(health.status == 200)

        let resumed = try await onThread { try HTTPTestClient(port: port) }
        resumed.send("GET /api/actions HTTP/1.1\r\nHost: 127.0.0.1\r\nLast-Event-ID: \(last)\r\n\r\n")
        _ = try #require(try await onThread { resumed.read(through: ": switchyard event stream\n\n") })
        let live = object(try await onThread { try client.request(#"{"op":"dispatch","action":{"type":"door/close"}}"#) })
        let event = try #require(try await onThread { resumed.read(through: "\n\n") })
        #expect(event.hasPrefix("id: \(live["id"] as? Int ?? -1)\n"), "\(event)")
        #expect(await bus.stop() == 0)
    }
}
