import Foundation
import Glibc
import SwitchyardBus
import SwitchyardTestSupport
import Testing

@testable import NATSPlugin

/// Store-and-forward with real processes: a bus publishing to JetStream from its journal
/// survives an outage, `kill -9` and restarts, drains at its `drainRate`, reports what
/// compaction removed, and copes with a damaged or hostile cursor.
@Suite(NATSServer.requirement, .serialized)
struct StoreAndForwardTests {
    private static let stream = #""stream": {"name": "FORWARD", "subjects": ["switchyard.>"]}"#

    private static func publisher(_ url: String, drainRate: Int? = nil) -> String {
        Fleet.bridge(url: url, #""mode": "jetstream", "publish": "demo/*", \#(stream)"# + (drainRate.map { #", "drainRate": \#($0)"# } ?? ""))
    }

    private static func subscriber(_ url: String) -> String {
        Fleet.bridge(url: url, #""mode": "jetstream", "subscribe": "switchyard.demo.>", "deliver": "all", \#(stream)"#)
    }

    private static func started(_ bus: BusProcess, times: Int) -> Bool {
        bus.actions("bus/started").count >= times
    }

    /// 10,000 actions published while the server is down, the bus killed twice meanwhile: all arrive once, in order (at the drain rate when set).
    @Test(arguments: [nil, 1000] as [Int?])
    func outageAndKillsLoseNothing(drainRate: Int?) async throws {
        let server = try await NATSServer()
        await server.stop()
        let fleet = try Fleet()
        let count = 10_000
        let plugins = [fleet.onceEmitter("demo/n", count: count, trigger: "go"), Self.publisher(server.url, drainRate: drainRate)]
        var a = try fleet.start("bus-a", plugins)
        await a.wait("bus-a to start") { Self.started($0, times: 1) }
        try fleet.touch("go")
        await a.wait("bus-a to journal \(count) actions", timeout: .seconds(120)) { $0.actions("demo/n").count >= count }
        for restart in 2...3 {
            a.killNow()
            a = try fleet.start("bus-a", plugins)
            await a.wait("bus-a to start again") { Self.started($0, times: restart) }
        }
        try await server.start()
        let b = try fleet.start("bus-b", [Self.subscriber(server.url)])
        await b.wait("bus-b to receive \(count) actions", timeout: .seconds(180)) { $0.numbers("demo/n", source: "nats:bus-a").count >= count }
        await a.wait("bus-a to save its cursor") { _ in (try? JournalCursor(dataDirectory: fleet.directory.path("data-bus-a"), name: "fleet").load()) ?? 0 > 0 }
        #expect(await a.stop() == 0)
        #expect(await b.stop() == 0)
        let received = b.actions("demo/n").filter { $0.source == "nats:bus-a" }
        #expect(received.compactMap { $0.payload["n"]?.intValue } == Array(1...count))
        let probe = try #require(try await NATSProbe.connect(port: server.port))
        #expect(await probe.messages(in: "FORWARD") == count)
        if drainRate != nil {
            // Timed where the drain happens: when the server stored the first and the last
            // message. Bus B's receive times would not do: B subscribes after A began draining
            // and catches up on the backlog in a burst. At 1000/s with a bucket of a tenth of a
            // second, the 10,000th is published 9.9 s after the first at the earliest; the
            // drain may be slower on a busy machine, never faster.
            let first = try #require(await probe.storedTime(in: "FORWARD", sequence: 1))
            let last = try #require(await probe.storedTime(in: "FORWARD", sequence: count))
            #expect(last.timeIntervalSince(first) >= 9, "drained \(count) actions in \(last.timeIntervalSince(first)) s at drainRate \(drainRate ?? 0)")
        }
        probe.close()
        #expect(a.actions("fleet/failed").filter { $0.payload["kind"] == "duplicate-id" }.isEmpty)
    }

    /// Actions compaction removed before they were published give one `fleet/failed` of kind `retention` naming them; the rest arrive.
    @Test func retentionGapIsReported() async throws {
        let server = try await NATSServer()
        await server.stop()
        let fleet = try Fleet()
        let count = 500
        let plugins = [fleet.onceEmitter("demo/n", count: count, trigger: "go"), Self.publisher(server.url)]
        let journal = #""journal": {"snapshotEvery": 100}"#
        let a = try fleet.start("bus-a", plugins, bus: journal)
        await a.wait("bus-a to start") { Self.started($0, times: 1) }
        try fleet.touch("go")
        await a.wait("bus-a to journal \(count) actions", timeout: .seconds(60)) { $0.actions("demo/n").count >= count }
        #expect(await a.stop() == 0)
        let dataDirectory = fleet.directory.path("data-bus-a")
        let cursor = try JournalCursor(dataDirectory: dataDirectory, name: "fleet").load()
        let compaction = try JournalDirectory(dataDirectory: dataDirectory).compact()
        #expect(compaction.removedSegments > 0)
        var remaining = JournalFollower(dataDirectory: dataDirectory, after: 0)
        let kept = try remaining.read(limit: 100_000)
        let lost = try #require(kept.missing)
        try await server.start()
        let b = try fleet.start("bus-b", [Self.subscriber(server.url)])
        let again = try fleet.start("bus-a", plugins, bus: journal)
        let keptNumbers = kept.actions.filter { $0.type == "demo/n" }.compactMap { $0.payload["n"]?.intValue }
        await b.wait("bus-b to receive what the journal kept", timeout: .seconds(60)) {
            $0.numbers("demo/n", source: "nats:bus-a").count >= keptNumbers.count
        }
        // The report goes into bus-a's inbox before what follows the gap is published, but bus-a
        // prints it on its own time: under load bus-b can have everything first.
        await again.wait("bus-a to report the retention gap", timeout: .seconds(60)) {
            $0.actions("fleet/failed").contains { $0.payload["kind"] == "retention" }
        }
        let failures = again.actions("fleet/failed").filter { $0.payload["kind"] == "retention" }
        #expect(failures.count == 1)
        #expect(failures.first?.payload["from"]?.intValue == Int(lost.lowerBound))
        #expect(failures.first?.payload["to"]?.intValue == Int(lost.upperBound))
        #expect(lost.lowerBound == (cursor ?? 0) + 1)
        #expect(await again.stop() == 0)
        #expect(await b.stop() == 0)
        #expect(b.numbers("demo/n", source: "nats:bus-a") == keptNumbers)
        #expect(keptNumbers.last == count && keptNumbers.count < count)
    }

    /// A damaged cursor gives `fleet/failed` of kind `cursor`, and publishing starts again from the journal's oldest action: nothing is lost.
    @Test func damagedCursorRestartsFromTheOldest() async throws {
        let server = try await NATSServer()
        await server.stop()
        let fleet = try Fleet()
        let count = 100
        let plugins = [fleet.onceEmitter("demo/n", count: count, trigger: "go"), Self.publisher(server.url)]
        let a = try fleet.start("bus-a", plugins)
        await a.wait("bus-a to start") { Self.started($0, times: 1) }
        try fleet.touch("go")
        await a.wait("bus-a to journal \(count) actions") { $0.actions("demo/n").count >= count }
        #expect(await a.stop() == 0)
        let path = fleet.directory.path("data-bus-a/fleet.cursor")
        try "not a cursor\n".write(toFile: path, atomically: false, encoding: .utf8)
        chmod(path, 0o600)
        try await server.start()
        let b = try fleet.start("bus-b", [Self.subscriber(server.url)])
        let again = try fleet.start("bus-a", plugins)
        await b.wait("bus-b to receive \(count) actions", timeout: .seconds(60)) { $0.numbers("demo/n", source: "nats:bus-a").count >= count }
        let failure = again.actions("fleet/failed").first { $0.payload["kind"] == "cursor" }
        #expect(failure?.payload["message"]?.stringValue?.contains("fleet.cursor") == true)
        #expect(failure?.payload["message"]?.stringValue?.contains("damaged") == true)
        #expect(await again.stop() == 0)
        #expect(await b.stop() == 0)
        #expect(b.numbers("demo/n", source: "nats:bus-a") == Array(1...count))
        #expect(try JournalCursor(dataDirectory: fleet.directory.path("data-bus-a"), name: "fleet").load() ?? 0 >= UInt64(count))
    }

    /// A cursor that is a symbolic link stops the bus before it starts, naming the file.
    @Test func symlinkedCursorIsRefused() async throws {
        let fleet = try Fleet()
        let dataDirectory = fleet.directory.path("data-bus-a")
        try FileManager.default.createDirectory(atPath: dataDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try "elsewhere".write(toFile: fleet.directory.path("elsewhere"), atomically: false, encoding: .utf8)
        #expect(symlink(fleet.directory.path("elsewhere"), dataDirectory + "/fleet.cursor") == 0)
        let a = try fleet.start("bus-a", [Self.publisher("nats://127.0.0.1:1")])
        let status = await a.exitStatus()
        #expect(status != nil && status != 0)
        // The pipe may hand over the last lines just after the exit.
        await eventually(interval: .milliseconds(20)) { a.stderr.contains("fleet.cursor") }
        #expect(a.stderr.contains("fleet.cursor") && a.stderr.contains("symbolic link"), "stderr: \(a.stderr)")
        #expect(try String(contentsOfFile: fleet.directory.path("elsewhere"), encoding: .utf8) == "elsewhere")
    }
}
