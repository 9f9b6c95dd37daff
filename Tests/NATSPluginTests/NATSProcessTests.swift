import Foundation
import SwitchyardBus
import SwitchyardTestSupport
import Testing

@testable import NATSPlugin

/// Two real `switchyard` processes sharing actions through a real nats-server.
@Suite(NATSServer.requirement, .serialized)
struct NATSProcessTests {
    private static func connected(_ bus: BusProcess) -> Bool {
        bus.statuses.last == "connected"
    }

    /// Actions cross both ways with source `nats:<origin>`, and none comes back to the bus that sent it.
    @Test(arguments: [NATSMode.core, .jetstream])
    func actionsCrossBothWays(mode: NATSMode) async throws {
        let server = try await NATSServer()
        let fleet = try Fleet()
        let bridge = Fleet.bridge(url: server.url, #""publish": "ping/*", "subscribe": "switchyard.ping.>", "mode": "\#(mode.rawValue)""#)
        let a = try fleet.start("bus-a", [fleet.emitter("ping/a", count: 5, trigger: "go-a"), bridge])
        let b = try fleet.start("bus-b", [fleet.emitter("ping/b", count: 5, trigger: "go-b"), bridge])
        await a.wait("bus-a to connect", until: Self.connected)
        await b.wait("bus-b to connect", until: Self.connected)
        try fleet.touch("go-a")
        try fleet.touch("go-b")
        await a.wait("bus-a to receive 5 ping/b") { $0.numbers("ping/b", source: "nats:bus-b").count >= 5 }
        await b.wait("bus-b to receive 5 ping/a") { $0.numbers("ping/a", source: "nats:bus-a").count >= 5 }
        #expect(await b.stop() == 0)
        #expect(await a.stop() == 0)
        #expect(a.numbers("ping/b", source: "nats:bus-b") == [1, 2, 3, 4, 5])
        #expect(b.numbers("ping/a", source: "nats:bus-a") == [1, 2, 3, 4, 5])
        #expect(a.actions("ping/a").map(\.source) == Array(repeating: "emit", count: 5))
        #expect(b.actions("ping/b").map(\.source) == Array(repeating: "emit", count: 5))
        #expect(a.actions("ping/b").count == 5 && b.actions("ping/a").count == 5)
    }

    /// The server restarts mid-stream: both buses reconnect, and with JetStream every action arrives, once.
    @Test func serverRestartLosesNothing() async throws {
        let server = try await NATSServer()
        let fleet = try Fleet()
        let bridge = Fleet.bridge(url: server.url, #""publish": "ping/*", "subscribe": "switchyard.ping.>", "mode": "jetstream""#)
        let a = try fleet.start("bus-a", [fleet.emitter("ping/a", count: 300, trigger: "go", pause: 0.01), bridge])
        let b = try fleet.start("bus-b", [bridge])
        await a.wait("bus-a to connect", until: Self.connected)
        await b.wait("bus-b to connect", until: Self.connected)
        try fleet.touch("go")
        await b.wait("bus-b to receive 50 actions") { $0.numbers("ping/a", source: "nats:bus-a").count >= 50 }
        await server.stop()
        await a.wait("bus-a to notice") { $0.statuses.last == "disconnected" }
        await b.wait("bus-b to notice") { $0.statuses.last == "disconnected" }
        try await server.start()
        await b.wait("bus-b to receive all 300", timeout: .seconds(60)) { $0.numbers("ping/a", source: "nats:bus-a").count >= 300 }
        #expect(await b.stop() == 0)
        #expect(await a.stop() == 0)
        #expect(b.numbers("ping/a", source: "nats:bus-a").sorted() == Array(1...300))
        for bus in [a, b] {
            #expect(bus.statuses.starts(with: ["connecting", "connected", "disconnected"]))
            #expect(bus.statuses.last == "connected")
        }
    }

    /// Bus B is stopped while A publishes 1,000 actions; started again, it receives all 1,000, once each.
    @Test func offlineBusCatchesUp() async throws {
        let server = try await NATSServer()
        let fleet = try Fleet()
        let bridge = Fleet.bridge(url: server.url, #""publish": "ping/*", "subscribe": "switchyard.ping.>", "mode": "jetstream""#)
        let first = try fleet.start("bus-b", [bridge])
        await first.wait("bus-b to create its consumer", until: Self.connected)
        #expect(await first.stop() == 0)
        let a = try fleet.start("bus-a", [fleet.emitter("ping/a", count: 1000, trigger: "go"), bridge])
        await a.wait("bus-a to connect", until: Self.connected)
        try fleet.touch("go")
        let probe = try #require(try await NATSProbe.connect(port: server.port))
        defer { probe.close() }
        var stored = 0
        await eventually(timeout: .seconds(60), interval: .milliseconds(50)) {
            stored = await probe.messages(in: "SWITCHYARD") ?? 0
            return stored >= 1000
        }
        #expect(stored == 1000)
        let b = try fleet.start("bus-b", [bridge])
        await b.wait("bus-b to receive 1000 actions", timeout: .seconds(60)) { $0.numbers("ping/a", source: "nats:bus-a").count >= 1000 }
        #expect(await b.stop() == 0)
        #expect(await a.stop() == 0)
        #expect(b.numbers("ping/a", source: "nats:bus-a") == Array(1...1000))
        #expect(b.actions("ping/a").count == 1000)
    }

    /// An action larger than max_payload becomes `fleet/failed` (kind oversized); the connection stays and the next action crosses.
    @Test func oversizedPayload() async throws {
        let fleet = try Fleet()
        let config = try fleet.directory.write("server.conf", "max_payload: 2048\n")
        let server = try await NATSServer(arguments: ["-c", config])
        let bridge = Fleet.bridge(url: server.url, #""publish": "ping/*", "subscribe": "switchyard.ping.>""#)
        let a = try fleet.start("bus-a", [fleet.emitter("ping/a", count: 2, trigger: "go", padding: 4000), bridge])
        let b = try fleet.start("bus-b", [bridge])
        await a.wait("bus-a to connect", until: Self.connected)
        await b.wait("bus-b to connect", until: Self.connected)
        try fleet.touch("go")
        await b.wait("bus-b to receive the small action") { !$0.numbers("ping/a", source: "nats:bus-a").isEmpty }
        // A's logger may write its failure just after B received the next action.
        await a.wait("bus-a to log the oversized action") { !$0.actions("fleet/failed").isEmpty }
        let failure = try #require(a.actions("fleet/failed").first)
        #expect(failure.payload["kind"] == "oversized")
        #expect(failure.payload["maxPayload"] == 2048)
        #expect(failure.payload["type"] == "ping/a")
        #expect((failure.payload["size"]?.intValue ?? 0) > 4000)
        #expect(a.statuses == ["connecting", "connected"])
        #expect(await b.stop() == 0)
        #expect(await a.stop() == 0)
        #expect(b.numbers("ping/a", source: "nats:bus-a") == [2])
    }

    /// Wrong credentials give `fleet/failed` (kind authorization) without showing the password; the bus keeps running.
    @Test func wrongCredentials() async throws {
        let server = try await NATSServer(arguments: ["--user", "alice", "--pass", "s3cret"])
        let fleet = try Fleet()
        let bridge = Fleet.bridge(url: server.url, #""publish": "ping/*", "user": "alice", "password": "${NATS_PASSWORD}""#)
        let wrong = try fleet.start("bus-a", [fleet.emitter("ping/a", count: 3, trigger: "go"), bridge], environment: ["NATS_PASSWORD": "hunter2"])
        let right = try fleet.start("bus-b", [bridge], environment: ["NATS_PASSWORD": "s3cret"])
        await wrong.wait("the refusal") { !$0.actions("fleet/failed").isEmpty }
        await right.wait("bus-b to connect", until: Self.connected)
        try fleet.touch("go")
        await wrong.wait("bus-a to keep running") { $0.numbers("ping/a", source: "emit") == [1, 2, 3] }
        let failures = wrong.actions("fleet/failed")
        #expect(failures.first?.payload["kind"] == "authorization")
        #expect(failures.first?.payload["message"]?.stringValue?.contains("Authorization Violation") == true)
        #expect(failures.count == 1)
        #expect(wrong.statuses == ["connecting", "disconnected"])
        #expect(wrong.isRunning)
        #expect(await wrong.stop() == 0)
        #expect(await right.stop() == 0)
        let everything = wrong.stderr + ((try? String(contentsOfFile: wrong.actionLog, encoding: .utf8)) ?? "")
        #expect(!everything.contains("hunter2"))
    }

    /// An unreachable server gives `fleet/failed` (kind unreachable) and a disconnected status; the bus keeps running and stops cleanly.
    @Test func unreachableServer() async throws {
        let fleet = try Fleet()
        let port = try unusedLocalPort()
        let bridge = Fleet.bridge(url: "nats://127.0.0.1:\(port)", #""publish": "ping/*", "bufferSize": 2, "overflow": "drop-oldest""#)
        let bus = try fleet.start("bus-a", [fleet.emitter("ping/a", count: 5, trigger: "go"), bridge])
        await bus.wait("the failure") { !$0.actions("fleet/failed").isEmpty }
        try fleet.touch("go")
        await bus.wait("the overflow") { !$0.actions("fleet/overflow").isEmpty }
        await bus.wait("bus-a to keep running") { $0.numbers("ping/a", source: "emit").count == 5 }
        let failures = bus.actions("fleet/failed")
        #expect(failures.first?.payload["kind"] == "unreachable")
        #expect(failures.first?.payload["url"] == .string("nats://127.0.0.1:\(port)"))
        #expect(failures.count == 1)
        #expect(bus.statuses == ["connecting", "disconnected"])
        #expect(bus.actions("fleet/overflow").first?.payload == ["dropped": 1, "policy": "drop-oldest", "bufferSize": 2])
        #expect(await bus.stop() == 0)
    }

    /// Config/fleet-a.json and Config/fleet-b.json validate, and share location fixes through a server.
    @Test func exampleConfigsShareFixes() async throws {
        let server = try await NATSServer()
        let fleet = try Fleet()
        let environment = ["NATS_URL": server.url]
        let root = SwitchyardProcess.packageRoot.appendingPathComponent("Config")
        let b = try BusProcess(config: root.appendingPathComponent("fleet-b.json").path, actionLog: fleet.directory.path("fleet-b.jsonl"),
                               directory: fleet.directory.url, environment: environment.merging(["FLEET_LOG": fleet.directory.path("fleet-b.jsonl")]) { $1 })
        await b.wait("fleet-b to connect") { $0.actions("nats/status").last?.payload["status"] == "connected" }
        let a = try BusProcess(config: root.appendingPathComponent("fleet-a.json").path, actionLog: fleet.directory.path("fleet-a.jsonl"),
                               directory: fleet.directory.url, environment: environment.merging(["FLEET_LOG": fleet.directory.path("fleet-a.jsonl")]) { $1 })
        await b.wait("a fix from fleet-a", timeout: .seconds(60)) { !$0.actions("gps/fix").filter { $0.source == "nats:fleet-a" }.isEmpty }
        #expect(await a.stop() == 0)
        #expect(await b.stop() == 0)
        let fix = try #require(b.actions("gps/fix").first { $0.source == "nats:fleet-a" })
        #expect(fix.payload["lat"]?.doubleValue != nil && fix.payload["lon"]?.doubleValue != nil)
    }
}
