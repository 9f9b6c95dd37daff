import Foundation
import Synchronization
import Testing
@testable import Switchyard
@testable import SwitchyardBus
@testable import SwitchyardDoors

/// The control socket of an in-process bus, through real Unix sockets.
struct ControlServerTests {
    /// A dispatch is answered with its id once reduced; state and stats answer at once.
    @Test func dispatchStateAndStats() async throws {
        let harness = try await ControlTestBus.start()
        let client = try await harness.connect()
        let replies = try await blocking {
            [
                try client.request(#"{"op":"dispatch","action":{"type":"count/add","payload":5}}"#),
                try client.request(#"{"op":"state","path":"counter.total"}"#),
                try client.request(#"{"op":"state"}"#),
                try client.request(#"{"op":"stats"}"#),
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

    /// Every bad request gets an error reply with a code, and the connection stays usable.
    @Test func errorsKeepTheConnectionOpen() async throws {
        let harness = try await ControlTestBus.start(limits: ControlLimits(maximumLineLength: 256))
        let client = try await harness.connect()
        let requests = [
            "{not json",
            #"{"op":"fly"}"#,
            #"{"path":"x"}"#,
            #"{"op":"dispatch","action":{"type":"Bad"}}"#,
            #"{"op":"state","path":"nowhere.at.all"}"#,
            String(repeating: "x", count: 10_000),
        ]
        let codes = try await blocking {
            try requests.map { request in try client.request(request)["error"]?["code"]?.stringValue ?? "none" }
        }
        #expect(codes == ["malformed-json", "unknown-op", "missing-field", "invalid-action", "not-found", "line-too-long"])
        let good = try await blocking { try client.request(#"{"op":"state","path":"counter.count"}"#) }
        #expect(good == ["ok": true, "state": 0])
        #expect(harness.bus.statistics.control?.errors == 6)
        try await harness.stop()
    }

    /// Requests sent in one write are answered in order, each dispatch before what follows it.
    @Test func pipelinedRequestsAreAnsweredInOrder() async throws {
        let harness = try await ControlTestBus.start()
        let client = try await harness.connect()
        let replies = try await blocking {
            var text = ""
            for n in 1...100 {
                text += #"{"op":"dispatch","action":{"type":"count/add","payload":\#(n)}}"# + "\n"
                text += #"{"op":"state","path":"counter.count"}"# + "\n"
            }
            try client.write(text)
            return try (0..<200).map { _ in try client.readJSON() }
        }
        var lastID = 0
        for n in 1...100 {
            let dispatched = replies[2 * (n - 1)]
            let id = try #require(dispatched["id"]?.intValue)
            #expect(id > lastID)
            lastID = id
            #expect(replies[2 * (n - 1) + 1]["state"] == .integer(Int64(n)))
        }
        try await harness.stop()
    }

    /// Replies are never dropped for size: the watcher buffer limit bounds streams only.
    @Test func largeRepliesAreNeverDropped() async throws {
        let harness = try await ControlTestBus.start(limits: ControlLimits(watcherBufferBytes: 64))
        let client = try await harness.connect()
        let replies = try await blocking {
            try client.write(String(repeating: #"{"op":"stats"}"# + "\n", count: 20))
            return try (0..<20).map { _ in try client.readJSON() }
        }
        #expect(replies.allSatisfy { $0["ok"] == true && $0["stats"] != nil })
        try await harness.stop()
    }

    /// A watcher gets `ok`, then every matching action and each change of the watched state.
    @Test func watchStreamsActionsAndState() async throws {
        let harness = try await ControlTestBus.start()
        let watcher = try await harness.connect()
        let sender = try await harness.connect()
        let first = try await blocking {
            try [watcher.request(#"{"op":"watch","actions":"count/*","state":"counter.total"}"#), watcher.readJSON()]
        }
        #expect(first[0] == ["ok": true, "watching": ["actions": "count/*", "state": "counter.total"]])
        #expect(first[1] == ["ok": true, "path": "counter.total", "state": 0])
        _ = try await blocking {
            _ = try sender.request(#"{"op":"dispatch","action":{"type":"other/thing"}}"#)
            _ = try sender.request(#"{"op":"dispatch","action":{"type":"count/add","payload":4}}"#)
        }
        let lines = try await blocking { try [watcher.readJSON(), watcher.readJSON()] }
        let action = try #require(lines.first { $0["action"] != nil })
        let state = try #require(lines.first { $0["path"] != nil })
        #expect(action["action"]?["type"] == "count/add")
        #expect(action["action"]?["source"] == "control")
        #expect(state["state"] == 4)
        let refused = try await blocking { try watcher.request(#"{"op":"stats"}"#) }
        #expect(refused["error"]?["code"] == "busy")
        try await harness.stop()
        let end = try await blocking { try watcher.readLine() }
        // A stream that ends because the bus stops says so, unlike a dropped one.
        #expect(end == #"{"end":"stopping","ok":true}"#)
    }

    /// A watcher that never reads is dropped and counted; another watcher and the bus carry on.
    @Test func watcherThatNeverReadsIsDropped() async throws {
        let log = LogCollector()
        let harness = try await ControlTestBus.start(limits: ControlLimits(watcherBufferBytes: 256 << 10), log: log.sink)
        let stuck = try await harness.connect()
        let reader = try await harness.connect()
        _ = try await blocking { try stuck.write(#"{"op":"watch","actions":"count/*"}"# + "\n") }
        _ = try await blocking { try reader.request(#"{"op":"watch","actions":"count/*"}"#) }
        let count = 6000
        let window = 200
        // The reader reports its progress, and the sender stays within a window of it, so the
        // reading watcher never has more than the window waiting while the stuck one piles up.
        let (progress, progressed) = AsyncStream<Int>.makeStream()
        let received = Task {
            try await blocking {
                var seen = 0
                while seen < count, let line = try reader.readLine() {
                    if line.contains("count/add") { seen += 1 }
                    if seen % 50 == 0 { progressed.yield(seen) }
                }
                progressed.finish()
                return seen
            }
        }
        let payload = JSON.string(String(repeating: "p", count: 300))
        var acknowledged = 0
        var updates = progress.makeAsyncIterator()
        for sent in 0..<count {
            while sent - acknowledged >= window, let next = await updates.next() { acknowledged = next }
            await harness.bus.dispatch(BusAction(type: "count/add", payload: ["pad": payload], source: "test"))
        }
        #expect(try await received.value == count)
        // The stuck watcher was dropped: reading now, it finds part of the stream, then the end
        // (the reason comes last if it read within the grace the server gives it).
        let lines = try await blocking {
            var lines: [String] = []
            while let line = try stuck.readLine() { lines.append(line) }
            return lines
        }
        #expect(lines.count < count)
        #expect(lines.dropLast().allSatisfy { $0.contains("count/add") || $0.contains("watching") })
        #expect(harness.bus.statistics.control?.watchersDropped == 1)
        #expect(harness.bus.statistics.control?.watchers == 1)
        #expect(log.lines.contains { $0.contains("dropped a watcher") })
        #expect(harness.bus.currentState.value(atPath: "counter.count") == .integer(Int64(count)))
        try await harness.stop()
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
                    try await blocking {
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

    /// Requests sent before the client closes its side are still carried out.
    @Test func requestsBeforeHalfCloseAreServed() async throws {
        let harness = try await ControlTestBus.start()
        let client = try await harness.connect()
        let replies = try await blocking {
            try client.write(#"{"op":"dispatch","action":{"type":"count/add","payload":2}}"# + "\n" + #"{"op":"state","path":"counter.total"}"#)
            client.finishWriting()
            return [try client.readJSON(), try client.readJSON(), try client.readLine().map { JSON.string($0) } ?? .null]
        }
        #expect(replies[0]["ok"] == true)
        #expect(replies[1]["state"] == 2)
        #expect(replies[2] == .null)
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
        _ = try await blocking { (try first.request(#"{"op":"stats"}"#), try second.request(#"{"op":"stats"}"#)) }
        let third = try await harness.connect()
        let refusal = try await blocking { try third.readJSON() }
        #expect(refusal["error"]?["code"] == "too-many-clients")
        #expect(try await blocking { try third.readLine() } == nil)
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
