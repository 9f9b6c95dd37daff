import Foundation
import SwitchyardTestSupport
import Testing

/// Idle connections cannot lock a default bus's HTTP door: when every slot is taken, the
/// longest idle one is closed for the newcomer, and an idle connection closes after the idle
/// timeout (shorter than the request timeout).
@Suite(.serialized)
struct HTTPIdleTests {
    /// 64 kept-alive idle connections (the default limit) leave room for a 65th client,
    /// counted as `idleReclaimed`; busy connections are never the ones closed.
    @Test(.scaledTimeLimit(minutes: 2)) func idleSlotsAreReclaimed() async throws {
        // A long idle timeout, so no connection closes of its own while they are opened.
        let (bus, port) = try await RunningBus.startServingHTTP(http: #""idleTimeout": 600"#)
        let busy = try await onThread { try HTTPTestClient(port: port) }
        let opened = try await onThread { () throws -> ([HTTPTestClient], [Int]) in
            busy.send("GET /api/actions HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            _ = busy.read(through: ": switchyard event stream\n\n")
            var clients: [HTTPTestClient] = []
            var statuses: [Int] = []
            // Each answers a request, so it is admitted, then idles.
            for _ in 0..<63 {
                let client = try HTTPTestClient(port: port)
                client.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                statuses.append(client.readResponse()?.status ?? 0)
                clients.append(client)
            }
            return (clients, statuses)
        }
        #expect(opened.1 == Array(repeating: 200, count: 63))
        let newcomer = try await onThread { try HTTPTestClient.request(port: port, "GET", "/api/stats") }
        #expect(newcomer.status == 200, "\(newcomer.text)")
        let http = (newcomer.json["stats"] as? [String: Any])?["http"] as? [String: Any]
        #expect(http?["idleReclaimed"] as? Int == 1)
        #expect(http?["refused"] as? Int == 0)
        // The first idle client was the one closed; the stream still runs.
        #expect(try await onThread { opened.0[0].closes() })
        let client = try await bus.connect()
        let live = object(try await onThread { try client.request(#"{"op":"dispatch","action":{"type":"door/open"}}"#) })
        let event = try #require(try await onThread { busy.read(through: "\n\n") })
        #expect(event.hasPrefix("id: \(live["id"] as? Int ?? -1)\n"))
        #expect(await bus.stop() == 0)
    }

    /// A kept-alive connection that sends nothing more is closed well before a minute, the
    /// old idle timeout; its next request gets a new connection.
    @Test(.scaledTimeLimit(minutes: 2)) func idleConnectionsClose() async throws {
        let (bus, port) = try await RunningBus.startServingHTTP()
        let closed = try await onThread { () throws -> (Int?, Bool) in
            let client = try HTTPTestClient(port: port)
            client.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let status = client.readResponse()?.status
            return (status, client.closes(within: .seconds(30)))
        }
        #expect(closed.0 == 200)
        #expect(closed.1, "an idle connection stayed open for 30 s")
        #expect(await bus.stop() == 0)
    }
}
