import Foundation
import Testing

/// No input can brick the bus: JSON nested deeper than the door limit (128) is refused where
/// it comes in, with that door's failure, and the bus starts again on what it kept.
@Suite(.serialized)
struct DoorLimitTests {
    /// An array nested `depth` deep around a number.
    static func nested(_ depth: Int) -> String {
        String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth)
    }

    /// Stops the bus, starts it again on the same journal and checks it comes up and stops cleanly.
    static func restartsCleanly(_ bus: RunningBus) async throws -> RunningBus {
        #expect(await bus.stop() == 0)
        let again = try await bus.restart()
        return again
    }

    /// A control dispatch nested 200 deep gets `malformed-json`; 128 deep is accepted; the bus restarts.
    @Test func controlSocketRefusesDeepPayloads() async throws {
        let bus = try await RunningBus.start()
        let client = try await bus.connect()
        let deep = try await onThread { try client.request(#"{"op":"dispatch","action":{"type":"deep/x","payload":\#(Self.nested(200))}}"#) }
        #expect(deep.contains(#""code":"malformed-json""#))
        #expect(deep.contains("nested deeper than 128"))
        // The request and its action are two levels; 126 inside them is 128 in all.
        let accepted = try await onThread { try client.request(#"{"op":"dispatch","action":{"type":"deep/y","payload":\#(Self.nested(126))}}"#) }
        #expect(accepted.contains(#""ok":true"#))
        let again = try await Self.restartsCleanly(bus)
        #expect(await again.stop() == 0)
    }

    /// A response nested 510 deep becomes `NAME/failed` kind `decode`, is not stored, and the bus restarts.
    @Test func networkFetchRefusesDeepResponses() async throws {
        let server = try await HTTPScriptServer.start(routes: #"{"/deep": [{"body": "\#(Self.nested(510))"}]}"#)
        let bus = try await RunningBus.start(plugins: """
            [{"name": "places", "kind": "network-fetch", "on": "go/fetch", "request": {"url": "\(server.url("/deep"))"}}]
            """)
        let sent = try await bus.client(["send", "go/fetch"])
        #expect(sent.status == 0)
        let client = try await bus.connect()
        var state = ""
        for _ in 0..<400 {
            state = try await onThread { try client.request(#"{"op":"state","path":"places"}"#) }
            if state.contains(#""status":"failed""#) { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(state.contains(#""status":"failed""#))
        #expect(state.contains(#""kind":"decode""#))
        #expect(state.contains("nested deeper than 128"))
        let again = try await Self.restartsCleanly(bus)
        #expect(await again.stop() == 0)
    }

    /// An exec child's line nested 300 deep is a counted protocol error, not an action; the bus restarts.
    @Test func execRefusesDeepLines() async throws {
        let directory = try TemporaryDirectory()
        let log = directory.url.appendingPathComponent("actions.jsonl").path
        let line = #"{"type":"child/deep","payload":\#(Self.nested(300))}"#
        let script = #"printf '%s\n' '\#(line)'; echo '{"type":"child/done"}'; exec cat > /dev/null"#
        let args = String(decoding: try JSONSerialization.data(withJSONObject: ["-c", script]), as: UTF8.self)
        let bus = try await RunningBus.start(plugins: """
            [{"name": "child", "kind": "exec", "command": "/bin/sh", "args": \(args)},
             {"name": "log", "kind": "logger", "format": "json", "to": "\(log)"}]
            """, in: directory)
        let logged = { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
        for _ in 0..<400 where !logged().contains("child/done") {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(logged().contains(#""type":"child/protocol-error""#))
        #expect(logged().contains("nested deeper than 128"))
        #expect(!logged().contains(#""type":"child/deep""#))
        #expect(await bus.stop() == 0)
        let again = try await bus.restart()
        #expect(await again.stop() == 0)
    }

    /// A configuration nested deeper than 128 is refused with exit 78, naming the limit.
    @Test func configurationRefusesDeepDocuments() async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("deep.json", """
            {"plugins": [{"name": "t", "kind": "timer", "interval": 1, "type": "t/tick", "payload": \(Self.nested(200))}]}
            """)
        let validate = try SwitchyardProcess(["validate", path], directory: directory.url)
        #expect(await validate.exitStatus() == 78)
        #expect(validate.stderr.contains("nested deeper than 128"))
    }
}
