import Foundation
import SwitchyardTestSupport
import Testing

/// The client commands against a real bus process: send, state, tail, stats, and how they
/// find the bus or say there is none.
@Suite(.serialized)
struct ControlClientTests {
    /// `send`, `tail --json`, `state` and `stats` work against a running bus and exit 0.
    @Test func clientsTalkToARunningBus() async throws {
        let bus = try await RunningBus.start(plugins: #"[{"name": "clock", "kind": "timer", "interval": 60}]"#)
        let tail = try SwitchyardProcess(["tail", "demo/*", "--json", "--config", bus.configPath], directory: bus.directory.url)
        #expect(try await bus.waitForWatchers(1))
        let sent = try await bus.client(["send", "demo/hello", #"{"to": "world"}"#])
        #expect(sent.status == 0)
        let reply = try JSONSerialization.jsonObject(with: Data(sent.stdout.utf8)) as? [String: Any]
        #expect(reply?["ok"] as? Bool == true)
        let id = try #require(reply?["id"] as? Int)
        #expect(await tail.wait { $0.stdout.contains(#""type":"demo/hello""#) })
        let line = try #require(tail.stdout.split(separator: "\n").first)
        let action = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        #expect(action?["source"] as? String == "control")
        #expect((action?["payload"] as? [String: Any])?["to"] as? String == "world")
        #expect((action?["id"] as? Int).map { $0 >= id } == true)

        let state = try await bus.client(["state"])
        #expect(state.status == 0)
        #expect(state.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "{}")
        let stats = try await bus.client(["stats"])
        #expect(stats.status == 0)
        #expect(stats.stdout.contains("bus \"e2e\": up"))
        #expect(stats.stdout.contains("clock"))
        #expect(stats.stdout.contains("journal:"))
        let json = try await bus.client(["stats", "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect((object?["control"] as? [String: Any])?["watchers"] as? Int == 1)

        tail.signal(SIGINT)
        #expect(await tail.exitStatus() == 0)
        #expect(await bus.stop() == 0)
    }

    /// `--socket` names the socket directly; the text tail shows one line per action.
    @Test func socketOptionAndTextTail() async throws {
        let bus = try await RunningBus.start()
        let tail = try SwitchyardProcess(["tail", "--text", "--socket", bus.socketPath], directory: bus.directory.url)
        #expect(try await bus.waitForWatchers(1))
        let sent = try SwitchyardProcess(["send", "text/line", "7", "--socket", bus.socketPath], directory: bus.directory.url)
        #expect(await sent.exitStatus() == 0)
        #expect(await tail.wait { $0.stdout.contains("text/line source=control 7") })
        tail.signal(SIGTERM)
        #expect(await tail.exitStatus() == 0)
        #expect(await bus.stop() == 0)
    }

    /// Error replies and a missing bus exit 1, a bad command line exits 2.
    @Test func exitCodes() async throws {
        let bus = try await RunningBus.start()
        let invalid = try await bus.client(["send", "Not-A-Type"])
        #expect(invalid.status == 1)
        #expect(invalid.stderr.contains("invalid-action"))
        let missing = try await bus.client(["state", "nothing.here"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("not-found"))
        let badPayload = try await bus.client(["send", "a/b", "{oops"])
        #expect(badPayload.status == 2)
        let badPattern = try await bus.client(["tail", "Not A Pattern"])
        #expect(badPattern.status == 2)
        let unknownOption = try await bus.client(["stats", "--verbose"])
        #expect(unknownOption.status == 2)
        #expect(await bus.stop() == 0)

        let none = try await bus.client(["stats"])
        #expect(none.status == 1)
        #expect(none.stderr.contains("no bus is listening"))
        #expect(none.stderr.contains("switchyard run"))
    }

    /// A second bus on a live bus's data directory is refused; a killed bus's socket is replaced.
    @Test func oneBusPerDataDirectoryAndStaleSocket() async throws {
        let bus = try await RunningBus.start()
        let second = try SwitchyardProcess(["run", bus.configPath], directory: bus.directory.url)
        #expect(await second.exitStatus() == 1)
        #expect(second.stderr.contains("in use by another bus"))
        bus.process.signal(SIGKILL)
        _ = await bus.process.exitStatus()
        #expect(FileManager.default.fileExists(atPath: bus.socketPath))
        let restarted = try await bus.restart()
        let stats = try await restarted.client(["stats"])
        #expect(stats.status == 0)
        #expect(await restarted.stop() == 0)
        #expect(!FileManager.default.fileExists(atPath: bus.socketPath))
    }

    /// Protocol errors over the raw socket keep the connection open.
    @Test func rawProtocolErrors() async throws {
        let bus = try await RunningBus.start()
        let client = try await bus.connect()
        let replies = try await onThread {
            try ["{nope", #"{"op":"launch"}"#, #"{"op":"dispatch"}"#, #"{"op":"state","path":"x"}"#].map { try client.request($0) }
        }
        let codes = replies.map { ((object($0)["error"] as? [String: Any])?["code"] as? String) ?? "none" }
        #expect(codes == ["malformed-json", "unknown-op", "missing-field", "not-found"])
        let ok = object(try await onThread { try client.request(#"{"op":"state"}"#) })
        #expect(ok["ok"] as? Bool == true)
        #expect(await bus.stop() == 0)
    }
}
