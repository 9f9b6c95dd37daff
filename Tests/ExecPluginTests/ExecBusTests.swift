import Foundation
import Glibc
import SwitchyardBus
import SwitchyardTestSupport
import SwitchyardBusTesting
import Testing

@testable import ExecPlugin

/// `exec` plugins on a real bus with real child processes: the protocol, readiness,
/// robustness and stopping.
@Suite(Fixtures.requirement, .scaledTimeLimit(minutes: 1))
struct ExecBusTests {
    /// An action goes to the child as a JSON line and its reply comes back as an action with the cause kept.
    @Test func echoRoundTrip() async throws {
        let bus = try TestBus.exec(Fixtures.entry("echo", "echo.py", arguments: ["echoed"], #""actions": "test/*""#))
                #expect(await bus.start())
        await bus.dispatch("test/ping", ["n": 1])
        await bus.waitFor("echoed/ping")
        let seen = bus.actions
        let ping = try #require(seen.first { $0.type == "test/ping" })
        let reply = try #require(seen.first { $0.type == "echoed/ping" })
        #expect(reply.payload == ["n": 1])
        #expect(reply.cause == ping.id)
        #expect(reply.source == "echo")
        let all = try await bus.stop()
        // The plugin's own actions are never written back to the child, so nothing loops.
        #expect(all.filter { $0.type.hasPrefix("echoed/") }.count == 1)
        #expect(bus.logLines.contains("switchyard: info: echo: echo: started"))
    }

    /// With a handshake the bus becomes ready only once the child said so.
    @Test func readinessHandshake() async throws {
        let bus = try TestBus.exec(Fixtures.entry("shake", "ready.py", #""handshake": true, "readyTimeout": 120, "actions": "test/*""#))
                #expect(await bus.start())
        #expect(bus.logLines.contains("switchyard: info: shake: child reported ready"))
        #expect(bus.actions.contains { $0.type == "shake/started" })
        await bus.dispatch("test/after-ready", 5)
        let replies = await bus.waitFor("ready/echo")
        #expect(replies.last?.payload == 5)
        try await bus.stop()
    }

    /// A child that never reports ready fails the start-up after the timeout, and is stopped and reaped.
    @Test func readinessTimeout() async throws {
        let bus = try TestBus.exec(Fixtures.entry("silent", "ready.py", arguments: ["never"], #""handshake": true, "readyTimeout": 0.3"#))
        #expect(await bus.start() == false)
        let error = await #expect(throws: BusError.self) {
            try await bus.stop()
        }
        #expect(error?.description.hasPrefix("plugin \"silent\" did not report ready") == true)
        let actions = bus.actions
        let pids = Fixtures.startedPids(actions, plugin: "silent")
        #expect(pids.count == 1)
        #expect(pids.allSatisfy { !Fixtures.isOurChild($0) })
        #expect(actions.first { $0.type == "silent/exited" }?.payload["stoppedBy"] == "stdin-closed")
    }

    /// Each malformed line becomes a protocol error quoting it, and the good line after them still arrives.
    @Test func malformedOutput() async throws {
        let bus = try TestBus.exec(Fixtures.entry("bad", "malformed.py"))
        #expect(await bus.start())
        await bus.waitFor("malformed/done")
        let seen = bus.actions
        let errors = seen.filter { $0.type == "bad/protocol-error" }
        let reasons = errors.compactMap { $0.payload["reason"]?.stringValue }
        #expect(reasons.count == 6)
        #expect(reasons.first?.hasPrefix("not JSON: ") == true)
        #expect(reasons.dropFirst().first == "expected a JSON object, got an array")
        #expect(reasons.dropFirst(2).first?.hasPrefix("an action needs a \"type\"") == true)
        #expect(reasons.dropFirst(3).first == #""type" must be a lower-case "domain/event" string, got "Not A Valid Type""#)
        #expect(reasons.dropFirst(4).first?.hasPrefix(#""cause" must be the id of an action"#) == true)
        #expect(reasons.dropFirst(5).first?.hasSuffix("is longer than maxLineLength (1048576)") == true)
        #expect(errors.first?.payload["excerpt"] == "this is not json")
        let overlong = try #require(errors.last)
        #expect(overlong.payload["excerpt"]?.stringValue?.utf8.count == ExecSession.excerptLength)
        #expect(overlong.payload["length"]?.intValue ?? 0 > 2 << 20)
        #expect(seen.first { $0.type == "malformed/done" }?.payload == 1)
        let all = try await bus.stop()
        #expect(all.first { $0.type == "bad/exited" }?.payload["protocolErrors"] == 6)
    }

    /// A child that keeps crashing is restarted with backoff until the restart limit, and every one is reaped.
    @Test func crashLoop() async throws {
        let bus = try TestBus.exec(Fixtures.entry(
            "crashy", "crash.py", arguments: ["3"],
            #""restart": {"policy": "on-failure", "maxRestarts": 2, "initialBackoff": 0.01, "maxBackoff": 0.02}"#
        ))
        #expect(await bus.start())
        await bus.waitUntil("the restart limit is reached") {
            $0.contains { $0.type == "bus/plugin-failed" && $0.payload["restartIn"] == .null }
        }
        let seen = bus.actions
        let failures = seen.filter { $0.type == "bus/plugin-failed" }
        #expect(failures.count == 3)
        #expect(failures.first?.payload["error"]?.stringValue?.hasSuffix("ended with exit code 3") == true)
        #expect(seen.filter { $0.type == "bus/plugin-restarted" }.count == 2)
        #expect(seen.filter { $0.type == "crash/started" }.count == 3)
        #expect(seen.filter { $0.type == "crashy/exited" }.allSatisfy { $0.payload["code"] == 3 })
        let pids = Fixtures.startedPids(seen, plugin: "crashy")
        #expect(pids.count == 3)
        #expect(pids.allSatisfy { !Fixtures.isOurChild($0) })
        try await bus.stop()
    }

    /// A child that never reads its stdin never holds up the bus: lines are dropped, counted and reported.
    @Test func childThatNeverReads() async throws {
        let bus = try TestBus.exec(Fixtures.entry("lazy", "never_reads.py", #""actions": "load/*", "queueSize": 16, "stopTimeout": 2"#))
        #expect(await bus.start())
        await bus.waitFor("lazy/started")
        let payload = JSON.string(String(repeating: "x", count: 1024))
        for _ in 0..<2000 {
            await bus.dispatch("load/item", payload)
        }
        let overflow = await bus.waitFor("lazy/overflow")
        #expect(overflow.first?.payload["policy"] == "drop-oldest")
        let all = try await bus.stop()
        let exited = try #require(all.first { $0.type == "lazy/exited" })
        #expect(exited.payload["stoppedBy"] == "SIGTERM")
        #expect(exited.payload["signal"] == .integer(Int64(SIGTERM)))
        #expect((exited.payload["dropped"]?.intValue ?? 0) > 1000)
        #expect(bus.logLines.contains { $0.contains("lazy: the child reads its stdin too slowly") })
    }

    /// A flooding child is slowed to the bus's pace: every action arrives, in order.
    @Test func childThatFloods() async throws {
        // Well beyond the pipe's 64 KiB and the 64 buffered events, so reading must pause.
        let count = 4_000
        let bus = try TestBus.exec(Fixtures.entry("flood", "flood.py", arguments: [String(count)]))
        #expect(await bus.start())
        await bus.waitFor("flood/done")
        let items = bus.payloads("flood/item").compactMap(\.intValue)
        #expect(items == Array(0..<count))
        try await bus.stop()
    }

    /// Stopping closes the child's stdin and a well-behaved child exits cleanly.
    @Test func cleanStop() async throws {
        let bus = try TestBus.exec(Fixtures.entry("polite", "echo.py", #""actions": "test/*""#))
        #expect(await bus.start())
        let started = await bus.waitFor("polite/started")
        let all = try await bus.stop()
        let exited = try #require(all.first { $0.type == "polite/exited" })
        #expect(exited.payload["stoppedBy"] == "stdin-closed")
        #expect(exited.payload["code"] == 0)
        #expect(Fixtures.startedPids(started, plugin: "polite").allSatisfy { !Fixtures.isOurChild($0) })
    }

    /// A child that ignores its stdin and SIGTERM is killed when the plugin stops.
    @Test func forcedStop() async throws {
        let bus = try TestBus.exec(Fixtures.entry("holdout", "stubborn.py", #""stopTimeout": 0.2"#))
        #expect(await bus.start())
        let started = await bus.waitFor("stubborn/started")
        let all = try await bus.stop()
        let exited = try #require(all.first { $0.type == "holdout/exited" })
        #expect(exited.payload["stoppedBy"] == "SIGKILL")
        #expect(exited.payload["signal"] == .integer(Int64(SIGKILL)))
        #expect(Fixtures.startedPids(started, plugin: "holdout").allSatisfy { !Fixtures.isOurChild($0) })
    }

    /// `env` values with `${VAR}` are expanded from the bus environment, and `cwd` is honoured.
    @Test func environmentAndDirectory() async throws {
        let bus = try TestBus.exec(
            Fixtures.entry("env", "environment.py", arguments: ["GREETING", "SECRET_FROM_BUS"],
                           #""env": {"GREETING": "${GREETING_SOURCE}"}, "cwd": "/tmp", "inheritEnv": false"#),
            environment: ["GREETING_SOURCE": "hello"]
        )
        #expect(await bus.start())
        let report = try #require(await bus.waitFor("environment/report").first)
        // The child echoed the value it got, and what a child emits is kept as it said it.
        #expect(report.payload == ["cwd": "/tmp", "env": ["GREETING": "hello", "SECRET_FROM_BUS": nil]])
        // The child exits 0 by itself: the plugin ends without a restart.
        let ended = await bus.waitFor("env/exited")
        #expect(ended.first?.payload["code"] == 0)
        let all = try await bus.stop()
        #expect(!all.contains { $0.type == "bus/plugin-failed" })
    }
}
