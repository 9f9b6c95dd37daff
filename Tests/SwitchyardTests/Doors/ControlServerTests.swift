import Foundation
import Synchronization
import Testing
@testable import Switchyard
@testable import SwitchyardBus
@testable import SwitchyardDoors
import SwitchyardIO
import SwitchyardTestSupport

/// The control socket of an in-process bus, end to end through real Unix sockets: what only a
/// socket shows (its mode, the client limit, a stale socket file, many clients at once). The
/// protocol itself is tested on an embedded loop (``ControlDoorTests``).
struct ControlServerTests {
    /// A dispatch is answered with its id once reduced; state and stats answer at once.
    @Test func dispatchStateAndStats() async throws {
        let harness = try await ControlTestBus.start()
        let client = try await harness.connect()
        let replies = try await onThread {
            [
                try client.requestJSON(#"{"op":"dispatch","action":{"type":"count/add","payload":5}}"#),
                try client.requestJSON(#"{"op":"state","path":"counter.total"}"#),
                try client.requestJSON(#"{"op":"state"}"#),
                try client.requestJSON(#"{"op":"stats"}"#),
            ]
        }
        #expect(replies[0]["ok"] == true)
        #expect(replies[0]["id"]?.intValue.map { $0 > 0 } == true)
        #expect(replies[1] == ["ok": true, "state": 5])
        #expect(replies[2]["state"]?.value(atPath: "counter.count") == 1)
        let stats = try #require(replies[3]["stats"])
        #expect(stats["name"] == "journaled")
        #expect(stats.value(atPath: "plugins.0.name") == "counter")
        #expect(stats.value(atPath: "control.clients") == 1)
        #expect(stats.value(atPath: "control.requests") == 4)
        #expect(stats.value(atPath: "journal.lastSequence")?.intValue == replies[0]["id"]?.intValue)
        #expect(stats["uptime"]?.doubleValue != nil)
        #expect(harness.bus.statistics.plugins.first?.emitted == 0)
        try await harness.stop()
    }

    /// A watcher gets `ok`, then every matching action and each change of the watched state.
    @Test func watchStreamsActionsAndState() async throws {
        let harness = try await ControlTestBus.start()
        let watcher = try await harness.connect()
        let sender = try await harness.connect()
        let first = try await onThread {
            try [watcher.requestJSON(#"{"op":"watch","actions":"count/*","state":"counter.total"}"#), watcher.readJSON()]
        }
        #expect(first[0] == ["ok": true, "watching": ["actions": "count/*", "state": "counter.total"]])
        #expect(first[1] == ["ok": true, "path": "counter.total", "state": 0])
        _ = try await onThread {
            _ = try sender.requestJSON(#"{"op":"dispatch","action":{"type":"other/thing"}}"#)
            _ = try sender.requestJSON(#"{"op":"dispatch","action":{"type":"count/add","payload":4}}"#)
        }
        let lines = try await onThread { try [watcher.readJSON(), watcher.readJSON()] }
        let action = try #require(lines.first { $0["action"] != nil })
        let state = try #require(lines.first { $0["path"] != nil })
        #expect(action["action"]?["type"] == "count/add")
        #expect(action["action"]?["source"] == "control")
        #expect(state["state"] == 4)
        let refused = try await onThread { try watcher.requestJSON(#"{"op":"stats"}"#) }
        #expect(refused["error"]?["code"] == "busy")
        try await harness.stop()
        let end = try await onThread { try watcher.readLine() }
        // A stream that ends because the bus stops says so, unlike a dropped one.
        #expect(end == #"{"end":"stopping","ok":true}"#)
    }

    /// Many clients dispatch at once; each gets its replies in order and nothing is lost.
    @Test func manyConcurrentClients() async throws {
        let harness = try await ControlTestBus.start()
        let clients = 20
        let perClient = 200
        try await withThrowingTaskGroup(of: [Int].self) { group in
            for _ in 0..<clients {
                let client = try await harness.connect()
                group.addTask {
                    try await onThread {
                        var text = ""
                        for _ in 0..<perClient { text += #"{"op":"dispatch","action":{"type":"count/add","payload":1}}"# + "\n" }
                        try client.write(text)
                        return try (0..<perClient).map { _ in try client.readJSON()["id"]?.intValue ?? -1 }
                    }
                }
            }
            var all = Set<Int>()
            for try await ids in group {
                #expect(zip(ids, ids.dropFirst()).allSatisfy { $0 < $1 })
                all.formUnion(ids)
            }
            #expect(all.count == clients * perClient)
        }
        #expect(harness.bus.currentState.value(atPath: "counter.total") == .integer(Int64(clients * perClient)))
        try await harness.stop()
    }

    /// The socket is private to its owner, and connections past the limit are refused.
    @Test func socketModeAndClientLimit() async throws {
        let harness = try await ControlTestBus.start(limits: ControlLimits(maximumClients: 2))
        var status = stat()
        #expect(stat(harness.socketPath, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o600)
        let first = try await harness.connect()
        let second = try await harness.connect()
        _ = try await onThread { (try first.requestJSON(#"{"op":"stats"}"#), try second.requestJSON(#"{"op":"stats"}"#)) }
        let third = try await harness.connect()
        let refusal = try await onThread { try third.readJSON() }
        #expect(refusal["error"]?["code"] == "too-many-clients")
        #expect(try await onThread { try third.readLine() } == nil)
        #expect(harness.bus.statistics.control?.refused == 1)
        try await harness.stop()
        #expect(!FileManager.default.fileExists(atPath: harness.socketPath))
    }

    /// A socket file left by a killed bus is replaced; a live listener is not.
    @Test func staleSocketIsReplacedAndLiveOneRefused() async throws {
        let directory = try JournalTestDirectory()
        try FileManager.default.createDirectory(atPath: directory.path + "/data", withIntermediateDirectories: true)
        let path = directory.path + "/data/control.sock"
        let stale = try UnixSocket.listen(at: path, backlog: 1)
        close(stale)
        #expect(FileManager.default.fileExists(atPath: path))
        let registry = journalRegistry()
        let configuration = try journaledConfiguration(directory.path + "/data", registry: registry)
        let bus = try Bus(configuration: configuration, registry: registry, services: BusServices(), serving: .doors(), log: LogSink(minimumLevel: .error))
        let running = Task { try await bus.run() }
        #expect(await bus.waitUntilReady())
        #expect(UnixSocket.isLive(path))
        bus.stop()
        try await running.value

        let live = try UnixSocket.listen(at: path, backlog: 1)
        defer { close(live) }
        let other = try Bus(configuration: configuration, registry: registry, services: BusServices(), serving: .doors(), log: LogSink(minimumLevel: .error))
        await #expect(throws: BusError.self) { try await other.run() }
    }
}

/// Collects the lines a bus logs.
final class LogCollector: Sendable {
    private let collected = Mutex([String]())

    var sink: LogSink {
        LogSink(minimumLevel: .info) { [self] line in collected.withLock { $0.append(line) } }
    }

    var lines: [String] { collected.withLock { $0 } }
}
