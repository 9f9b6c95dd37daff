import Foundation
import SwitchyardTestSupport
import Testing

/// The HTTP endpoints of the real `switchyard` executable (`bus.http`): health, readiness,
/// state, stats, dispatch and the Server-Sent Events feed.
@Suite(.serialized)
struct HTTPEndpointTests {
    /// `/healthz` answers while the process serves; `/readyz` once every plugin runs.
    @Test(.scaledTimeLimit(minutes: 2)) func healthAndReadiness() async throws {
        let (bus, port) = try await RunningBus.startServingHTTP(
            plugins: #"[{"name": "clock", "kind": "timer", "interval": 60, "type": "clock/tick"}]"#)
        let health = try await onThread { try HTTPTestClient.request(port: port, "GET", "/healthz") }
        #expect(health.status == 200)
        #expect(health.text == "ok\n")
        let ready = try await onThread { try HTTPTestClient.request(port: port, "GET", "/readyz") }
        #expect(ready.status == 200, "\(ready.text)")
        let head = try await onThread { try HTTPTestClient.request(port: port, "HEAD", "/healthz") }
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        #expect(head.headers["content-length"] == "3")
        #expect(await bus.stop() == 0)
    }

    /// A gpsd plugin whose feed cannot be reached (nothing listens on its port) makes `/readyz`
    /// answer 503 naming the plugin and its status, while the plugin itself runs on, retrying.
    @Test(.scaledTimeLimit(minutes: 2)) func readinessFailsForAnUnreachableGpsdFeed() async throws {
        let (bus, port) = try await RunningBus.startServingHTTP(
            plugins: #"[{"name": "gps", "kind": "gpsd", "host": "127.0.0.1", "port": 9}]"#)
        var last = ""
        let notReady = try await eventually(interval: .milliseconds(100)) {
            let response = try await onThread { try HTTPTestClient.request(port: port, "GET", "/readyz") }
            last = response.text
            return response.status == 503 && response.text.contains("gpsd plugin gps is")
        }
        #expect(notReady, "\(last)")
        let health = try await onThread { try HTTPTestClient.request(port: port, "GET", "/healthz") }
        #expect(health.status == 200)
        #expect(await bus.stop() == 0)
    }

    /// A plugin the bus gave up on makes `/readyz` answer 503 naming it; `/healthz` stays 200.
    @Test(.scaledTimeLimit(minutes: 2)) func readinessFailsForAFailedPlugin() async throws {
        let (bus, port) = try await RunningBus.startServingHTTP(
            plugins: #"[{"name": "broken", "kind": "exec", "command": "false", "restart": "never"}]"#)
        let notReady = try await eventually(interval: .milliseconds(100)) {
            let response = try await onThread { try HTTPTestClient.request(port: port, "GET", "/readyz") }
            return response.status == 503 && response.text.contains("broken")
        }
        #expect(notReady)
        let health = try await onThread { try HTTPTestClient.request(port: port, "GET", "/healthz") }
        #expect(health.status == 200)
        _ = await bus.stop()
    }

    /// `/api/state` answers the state or the part at `path` (404 when nothing is there), and
    /// `/api/stats` the control `stats` object with the server's own counters.
    @Test(.scaledTimeLimit(minutes: 2)) func stateAndStats() async throws {
        let tiles = "http://127.0.0.1:9/{z}/{x}/{y}.png"
        let (bus, port) = try await RunningBus.startServingHTTP(
            http: #""tiles": "\#(tiles)""#,
            plugins: #"[{"name": "here", "kind": "location-emitter", "source": {"static": {"latitude": 51.5, "longitude": -0.12}}}]"#)
        let whole = try await onThread { try HTTPTestClient.request(port: port, "GET", "/api/state") }
        #expect(whole.status == 200)
        #expect(whole.headers["content-type"] == "application/json")
        #expect(whole.json["ok"] as? Bool == true)
        #expect((whole.json["state"] as? [String: Any])?["here"] != nil)
        let missing = try await onThread { try HTTPTestClient.request(port: port, "GET", "/api/state?path=nothing.here") }
        #expect(missing.status == 404)
        #expect((missing.json["error"] as? [String: Any])?["code"] as? String == "not-found")
        let stats = try await onThread { try HTTPTestClient.request(port: port, "GET", "/api/stats") }
        let http = (stats.json["stats"] as? [String: Any])?["http"] as? [String: Any]
        #expect(http?["listen"] as? String == "127.0.0.1:\(port)")
        #expect((http?["accepted"] as? Int ?? 0) >= 3)
        // The dashboard reads the tile template here.
        #expect(http?["tiles"] as? String == tiles)
        #expect(await bus.stop() == 0)
    }

    /// `POST /api/dispatch` answers once the action is journaled, with its id, and refuses
    /// bad bodies with the control protocol's codes.
    @Test(.scaledTimeLimit(minutes: 2)) func dispatch() async throws {
        let (bus, port) = try await RunningBus.startServingHTTP()
        let json = ["Content-Type": "application/json"]
        let ok = try await onThread {
            try HTTPTestClient.request(port: port, "POST", "/api/dispatch", headers: json, body: #"{"type":"door/open","payload":{"door":3}}"#)
        }
        #expect(ok.status == 200, "\(ok.text)")
        let id = try #require(ok.json["id"] as? Int)
        let journaled = try await journalActions(bus)
        let recorded = journaled.first { $0["id"] as? Int == id }
        #expect(recorded?["type"] as? String == "door/open")
        #expect(recorded?["source"] as? String == "http")
        let cases: [(String, [String: String], Int, String)] = [
            (#"{"type":"door/open""#, json, 400, "malformed-json"),
            (#"{"type":"Not A Type"}"#, json, 400, "invalid-action"),
            (#"{"type":"a/b","colour":1}"#, json, 400, "invalid-action"),
            (#"[1]"#, json, 400, "invalid-action"),
            (#"{"type":"a/b"}"#, ["Content-Type": "text/plain"], 415, "unsupported-media-type"),
        ]
        for (body, headers, status, code) in cases {
            let response = try await onThread { try HTTPTestClient.request(port: port, "POST", "/api/dispatch", headers: headers, body: body) }
            #expect(response.status == status, "\(body): \(response.text)")
            #expect((response.json["error"] as? [String: Any])?["code"] as? String == code, "\(body): \(response.text)")
        }
        let wrongMethod = try await onThread { try HTTPTestClient.request(port: port, "GET", "/api/dispatch") }
        #expect(wrongMethod.status == 405)
        #expect(wrongMethod.headers["allow"] == "POST")
        let unknown = try await onThread { try HTTPTestClient.request(port: port, "GET", "/nothing") }
        #expect(unknown.status == 404)
        #expect(await bus.stop() == 0)
    }

    /// `/api/actions` streams matching actions as events with `id:` the sequence number, and
    /// `Last-Event-ID` replays the journaled ones after it before the live ones.
    @Test(.scaledTimeLimit(minutes: 2)) func actionStreamAndResume() async throws {
        let (bus, port) = try await RunningBus.startServingHTTP()
        let stream = try await onThread { try HTTPTestClient(port: port) }
        stream.send("GET /api/actions?pattern=door/* HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        let head = try #require(try await onThread { stream.read(through: ": switchyard event stream\n\n") })
        #expect(head.contains("HTTP/1.1 200 OK"))
        #expect(head.contains("Content-Type: text/event-stream"))
        let client = try await bus.connect()
        var ids: [Int] = []
        for (index, type) in ["door/open", "window/open", "door/close"].enumerated() {
            let reply = object(try await onThread { try client.request(#"{"op":"dispatch","action":{"type":"\#(type)","payload":{"n":\#(index)}}}"#) })
            ids.append(try #require(reply["id"] as? Int))
        }
        let first = try #require(try await onThread { stream.read(through: "\n\n") })
        let second = try #require(try await onThread { stream.read(through: "\n\n") })
        #expect(first.hasPrefix("id: \(ids[0])\ndata: {"))
        #expect(first.contains(#""type":"door/open""#))
        #expect(second.hasPrefix("id: \(ids[2])\ndata: {"), "window/open is not door/*")

        let resumed = try await onThread { try HTTPTestClient(port: port) }
        resumed.send("GET /api/actions HTTP/1.1\r\nHost: 127.0.0.1\r\nLast-Event-ID: \(ids[0])\r\n\r\n")
        _ = try #require(try await onThread { resumed.read(through: ": switchyard event stream\n\n") })
        let replayed1 = try #require(try await onThread { resumed.read(through: "\n\n") })
        let replayed2 = try #require(try await onThread { resumed.read(through: "\n\n") })
        #expect(replayed1.hasPrefix("id: \(ids[1])\n"))
        #expect(replayed2.hasPrefix("id: \(ids[2])\n"))
        let live = object(try await onThread { try client.request(#"{"op":"dispatch","action":{"type":"door/open"}}"#) })
        let next = try #require(try await onThread { resumed.read(through: "\n\n") })
        #expect(next.hasPrefix("id: \(live["id"] as? Int ?? -1)\n"))

        let bad = try await onThread { try HTTPTestClient.request(port: port, "GET", "/api/actions", headers: ["Last-Event-ID": "yesterday"]) }
        #expect(bad.status == 400)
        let badPattern = try await onThread { try HTTPTestClient.request(port: port, "GET", "/api/actions?pattern=Not%20a%20pattern") }
        #expect(badPattern.status == 400)
        #expect(await bus.stop() == 0)
        // The stream ends with an end event when the bus stops.
        #expect(try await onThread { stream.read(through: "event: end\n") } != nil)
    }

    /// An event-stream client that stops reading is disconnected and counted; the bus goes on.
    @Test(.scaledTimeLimit(minutes: 3)) func slowStreamClientIsDropped() async throws {
        let (bus, port) = try await RunningBus.startServingHTTP()
        let stream = try await onThread { try HTTPTestClient(port: port) }
        stream.send("GET /api/actions HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        let client = try await bus.connect()
        let payload = String(repeating: "x", count: 8000)
        // Pipelined: 2,000 actions of 8 KB, 16 MB in all, far past the 1 MiB outbox and the
        // socket buffers of a client that reads nothing.
        let dropped = try await eventually(interval: .milliseconds(200)) {
            try await onThread {
                for _ in 0..<200 { try client.write(#"{"op":"dispatch","action":{"type":"load/x","payload":{"p":"\#(payload)"}}}"# + "\n") }
                for _ in 0..<200 { _ = try client.readLine() }
            }
            let stats = try await onThread { try HTTPTestClient.request(port: port, "GET", "/api/stats") }
            let http = (stats.json["stats"] as? [String: Any])?["http"] as? [String: Any]
            return (http?["streamsDropped"] as? Int ?? 0) >= 1
        }
        #expect(dropped)
        #expect(try await onThread { stream.closes() })
        let health = try await onThread { try HTTPTestClient.request(port: port, "GET", "/healthz") }
        #expect(health.status == 200)
        #expect(await bus.stop() == 0)
    }
}
