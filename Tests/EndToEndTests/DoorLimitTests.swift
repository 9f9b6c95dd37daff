import Foundation
import SwitchyardTestSupport
import Testing

/// No input can brick the bus: JSON nested deeper than the door limit (512) is refused where
/// it comes in, with that door's failure; what a door accepted, however deep, is read back
/// when the bus starts again.
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

    /// A control dispatch nested 600 deep gets `malformed-json`; 512 deep is accepted and read back after a restart.
    @Test func controlSocketRefusesDeepPayloads() async throws {
        let bus = try await RunningBus.start()
        let client = try await bus.connect()
        let deep = try await onThread { try client.request(#"{"op":"dispatch","action":{"type":"deep/x","payload":\#(Self.nested(600))}}"#) }
        #expect(deep.contains(#""code":"malformed-json""#))
        #expect(deep.contains("nested deeper than 512"))
        // The request and its action are two levels; 510 inside them is 512 in all.
        let accepted = try await onThread { try client.request(#"{"op":"dispatch","action":{"type":"deep/y","payload":\#(Self.nested(510))}}"#) }
        #expect(accepted.contains(#""ok":true"#))
        let again = try await Self.restartsCleanly(bus)
        #expect(await again.stop() == 0)
    }

    /// A response nested 510 deep is loaded and read back after a restart; one nested 600 deep is `NAME/failed` kind `decode`.
    @Test func networkFetchKeepsWhatItAcceptedReadable() async throws {
        let server = try await HTTPScriptServer.start(routes: """
            {"/deep": [{"body": "{\\"a\\": \(Self.nested(509))}"}, {"body": "\(Self.nested(600))"}]}
            """)
        let bus = try await RunningBus.start(plugins: """
            [{"name": "places", "kind": "network-fetch", "on": "go/fetch", "policy": "queue", "request": {"url": "\(server.url("/deep"))"}}]
            """)
        let client = try await bus.connect()
        func waitForState(_ text: String) async throws -> String {
            var state = ""
            for _ in 0..<400 {
                state = try await onThread { try client.request(#"{"op":"state","path":"places"}"#) }
                if state.contains(text) { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            return state
        }
        #expect(try await bus.client(["send", "go/fetch"]).status == 0)
        #expect(try await waitForState(#""status":"loaded""#).contains(#""status":"loaded""#))
        #expect(try await bus.client(["send", "go/fetch"]).status == 0)
        let failed = try await waitForState(#""status":"failed""#)
        #expect(failed.contains(#""kind":"decode""#))
        #expect(failed.contains("nested deeper than 512"))
        // The 510-deep value is in the journal and, after a clean stop, in a snapshot.
        let again = try await Self.restartsCleanly(bus)
        let restored = try await again.connect()
        let state = try await onThread { try restored.request(#"{"op":"state","path":"places.status"}"#) }
        #expect(state.contains("failed"))
        #expect(await again.stop() == 0)
        let third = try await again.restart()
        #expect(await third.stop() == 0)
    }

    /// An exec child's line nested 600 deep is a counted protocol error, not an action; 500 deep is an action; the bus restarts.
    @Test func execRefusesDeepLines() async throws {
        let directory = try TemporaryDirectory()
        let log = directory.url.appendingPathComponent("actions.jsonl").path
        let refused = #"{"type":"child/deep","payload":\#(Self.nested(600))}"#
        let accepted = #"{"type":"child/fine","payload":\#(Self.nested(500))}"#
        let script = #"printf '%s\n' '\#(refused)' '\#(accepted)'; echo '{"type":"child/done"}'; exec cat > /dev/null"#
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
        #expect(logged().contains("nested deeper than 512"))
        #expect(!logged().contains(#""type":"child/deep""#))
        #expect(logged().contains(#""type":"child/fine""#))
        #expect(await bus.stop() == 0)
        let again = try await bus.restart()
        #expect(await again.stop() == 0)
    }

    /// A configuration nested deeper than 512 is refused with exit 78, naming the limit.
    @Test func configurationRefusesDeepDocuments() async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("deep.json", """
            {"plugins": [{"name": "t", "kind": "timer", "interval": 1, "type": "t/tick", "payload": \(Self.nested(600))}]}
            """)
        let validate = try SwitchyardProcess(["validate", path], directory: directory.url)
        #expect(await validate.exitStatus() == 78)
        #expect(validate.stderr.contains("nested deeper than 512"))
    }
}
