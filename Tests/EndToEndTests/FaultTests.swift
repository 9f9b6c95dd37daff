import Foundation
import SwitchyardTestSupport
import Synchronization
import Testing

/// Faults against the real executable: kill -9, a failing plugin, heavy concurrent load,
/// hostile input, and a watcher that never reads.
@Suite(.serialized)
struct FaultTests {
    /// `kill -9` during dispatching loses no acknowledged action, and the state is the journal's.
    @Test func killDuringDispatchLosesNothingAcknowledged() async throws {
        // After the restart every acknowledged action must be in the journal with the id it
        // was acknowledged with, the state must be the one the journaled actions give, and the
        // sequence must continue after them. The state is a network-fetch plugin's slice, set
        // by its own `fetch/loaded` actions (the clients send them with `"source": "fetch"`);
        // the plugin never fetches.
        let bus = try await RunningBus.start(
            bus: #"{"name": "fault", "journal": {"fsync": "always", "snapshotEvery": 300}}"#,
            plugins: """
                [{"name": "clock", "kind": "timer", "interval": 0.01},
                 {"name": "fetch", "kind": "network-fetch", "on": "trigger/never", "request": {"url": "http://127.0.0.1:9/"}}]
                """
        )
        // The plugin only takes its own actions into its slice; a client may say it is the source.
        let first = try await bus.connect()
        _ = try await onThread {
            try first.request(#"{"op":"dispatch","action":{"type":"fetch/loading","payload":{"requestId":1},"source":"fetch"}}"#)
        }
        let clients = 4
        let acknowledged = Locked([[(n: Int, id: Int)]](repeating: [], count: clients))
        let dispatchers = try await (0..<clients).asyncMap { client in
            let connection = try await bus.connect()
            return Task {
                try await onThread {
                    for n in 0... {
                        let request = #"{"op":"dispatch","action":{"type":"fetch/loaded","source":"fetch","payload":{"requestId":1,"value":{"c":\#(client),"n":\#(n)}}}}"#
                        // The bus is killed meanwhile: a refused write or a missing reply ends this client.
                        guard (try? connection.write(request + "\n")) != nil,
                              let reply = try? connection.readLineBytes(),
                              let id = integer(after: "id", in: reply)
                        else { return }
                        acknowledged.withLock { $0[client].append((n, id)) }
                    }
                }
            }
        }
        let enough = await bus.process.wait(timeout: .seconds(60)) { _ in acknowledged.withLock { $0.allSatisfy { $0.count >= 300 } } }
        #expect(enough)
        bus.process.signal(SIGKILL)
        // A process killed inside fdatasync ends only when the disk has written what the
        // call waits for; beside other processes writing hundreds of megabytes, that took
        // over 30 s.
        #expect(await bus.process.exitStatus(timeout: .seconds(120)) == 128 + SIGKILL)
        for dispatcher in dispatchers { try await dispatcher.value }
        let acked = acknowledged.withLock { $0 }
        let lastAcknowledged = acked.flatMap { $0.map(\.id) }.max() ?? 0

        let restarted = try await bus.restart()
        #expect(restarted.process.stderr.contains("journal: restored through sequence"))
        let state = object(try await restarted.client(["state", "fetch", "--json"]).stdout)
        let after = try await restarted.client(["send", "after/restart"])
        let newID = try #require(integer(after: "id", in: ArraySlice(after.stdout.utf8)))
        #expect(newID > lastAcknowledged)
        #expect(await restarted.stop() == 0)

        let verify = try await restarted.client(["journal", "verify"])
        #expect(verify.status == 0)
        var journaled: [String: Int] = [:]
        var lastLoaded: [String: Any]?
        for action in try await journalActions(restarted) where action["type"] as? String == "fetch/loaded" && action["id"] as? Int ?? 0 < newID {
            guard let value = (action["payload"] as? [String: Any])?["value"] as? [String: Any],
                  let c = value["c"] as? Int, let n = value["n"] as? Int, let id = action["id"] as? Int else { continue }
            journaled["\(c)/\(n)"] = id
            lastLoaded = action
        }
        for (client, actions) in acked.enumerated() {
            #expect(!actions.isEmpty)
            let missing = actions.filter { journaled["\(client)/\($0.n)"] != $0.id }
            #expect(missing.isEmpty, "client \(client): \(missing.count) acknowledged actions are not in the journal as acknowledged")
        }
        // The restored slice is the one the last journaled `fetch/loaded` left.
        let lastValue = (lastLoaded?["payload"] as? [String: Any])?["value"] as? [String: Any]
        #expect(state["status"] as? String == "loaded")
        #expect((state["value"] as? [String: Any])?["c"] as? Int == lastValue?["c"] as? Int)
        #expect((state["value"] as? [String: Any])?["n"] as? Int == lastValue?["n"] as? Int)
        #expect(state["updatedAt"] as? String == lastLoaded?["time"] as? String)
    }

    /// A failing plugin restarts with growing backoff, shows in `tail`, and others keep working.
    @Test func failingPluginRestartsWithBackoff() async throws {
        let bus = try await RunningBus.start(plugins: """
            [{"name": "crasher", "kind": "exec", "command": "/bin/sh", "args": ["-c", "exit 3"],
              "restart": {"policy": "always", "initialBackoff": 0.05, "maxBackoff": 0.4, "maxRestarts": 1000, "window": 60}},
             {"name": "clock", "kind": "timer", "interval": 0.05}]
            """)
        let tail = try SwitchyardProcess(["tail", "bus/*", "--json", "--config", bus.configPath], directory: bus.directory.url)
        let failures = { tail.stdout.components(separatedBy: "\"bus/plugin-failed\"").count - 1 }
        #expect(await tail.wait(timeout: .seconds(30)) { _ in failures() >= 3 })
        tail.signal(SIGTERM)
        #expect(await tail.exitStatus() == 0)
        let lines = tail.stdout.split(separator: "\n").map { object(String($0)) }
        let failed = lines.filter { $0["type"] as? String == "bus/plugin-failed" }.compactMap { $0["payload"] as? [String: Any] }
        #expect(failed.allSatisfy { $0["plugin"] as? String == "crasher" && ($0["error"] as? String ?? "").contains("3") })
        let delays = failed.compactMap { $0["restartIn"] as? Double }
        #expect(delays.count == failed.count)
        #expect(zip(delays, delays.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(delays.allSatisfy { $0 <= 0.4 })

        let first = try await bus.client(["stats", "--json"])
        let clockBefore = clockEmitted(first.stdout)
        #expect(await bus.process.wait { _ in true })
        var later = first
        try await waitUntil("the timer has emitted more") {
            later = try await bus.client(["stats", "--json"])
            return clockEmitted(later.stdout) > clockBefore
        }
        let plugins = (object(later.stdout)["plugins"] as? [[String: Any]]) ?? []
        let crasher = plugins.first { $0["name"] as? String == "crasher" }
        let clock = plugins.first { $0["name"] as? String == "clock" }
        #expect((crasher?["failures"] as? Int ?? 0) >= 3)
        #expect((crasher?["restarts"] as? Int ?? 0) >= 2)
        #expect(clock?["status"] as? String == "running")
        #expect(clock?["failures"] as? Int == 0)
        #expect(clockEmitted(later.stdout) > clockBefore)
        #expect(await bus.stop() == 0)
    }

    private func clockEmitted(_ stats: String) -> Int {
        let plugins = (object(stats)["plugins"] as? [[String: Any]]) ?? []
        return plugins.first { $0["name"] as? String == "clock" }?["emitted"] as? Int ?? 0
    }

    /// Fifty clients × 10,000 actions: a watcher sees every acknowledged one, in order per client.
    /// Opt-in (`SWITCHYARD_LOAD_TESTS=1`): it keeps both cores busy for a minute or more.
    @Test(.enabled(if: TestTimeouts.loadTestsEnabled, "a load test: set SWITCHYARD_LOAD_TESTS=1 to run it"),
          .scaledTimeLimit(minutes: 5))
    func fiftyClientsTenThousandActionsEach() async throws {
        let bus = try await RunningBus.start(bus: #"{"name": "load", "inboxCapacity": 16384}"#)
        bus.yieldCPU()
        let clients = 50
        let perClient = 10_000
        let window = 64
        // The watcher's buffers hold 8192 actions; the clients stay within half of that ahead
        // of the watcher, so a slow test machine slows the clients instead of dropping it.
        let lead = 4096
        let watcher = try await bus.connect()
        let watching = try await onThread { try watcher.request(#"{"op":"watch","actions":"load/*"}"#) }
        #expect(object(watching)["ok"] as? Bool == true)
        let progress = Locked((acknowledged: 0, watched: 0))
        let watched = Task {
            try await onThread(background: true) {
                var ids = [[Int]](repeating: [], count: clients)
                var outOfOrder = 0
                var total = 0
                while total < clients * perClient, let line = try watcher.readLineBytes(timeout: .seconds(60)) {
                    guard let (id, c, n) = watchedAction(line), c < clients else { continue }
                    if n != ids[c].count { outOfOrder += 1 }
                    ids[c].append(id)
                    total += 1
                    if total % 256 == 0 { progress.withLock { $0.watched = total } }
                }
                return (ids, outOfOrder)
            }
        }
        let dispatchers = try await (0..<clients).asyncMap { client in
            let connection = try await bus.connect()
            return Task {
                try await onThread(background: true) {
                    var ids: [Int] = []
                    ids.reserveCapacity(perClient)
                    var sent = 0
                    while ids.count < perClient {
                        var batch: [UInt8] = []
                        while sent < perClient, sent - ids.count < window {
                            batch.append(contentsOf: #"{"op":"dispatch","action":{"type":"load/n","payload":{"c":\#(client),"n":\#(sent)}}}"#.utf8)
                            batch.append(10)
                            sent += 1
                        }
                        while progress.withLock({ $0.acknowledged - $0.watched }) > lead { usleep(1000) }
                        if !batch.isEmpty { try connection.write(batch) }
                        guard let reply = try connection.readLineBytes(timeout: .seconds(60)), let id = integer(after: "id", in: reply) else { break }
                        ids.append(id)
                        progress.withLock { $0.acknowledged += 1 }
                    }
                    return ids
                }
            }
        }
        var acknowledged: [[Int]] = []
        for dispatcher in dispatchers { acknowledged.append(try await dispatcher.value) }
        let (seen, outOfOrder) = try await watched.value
        #expect(outOfOrder == 0)
        for client in 0..<clients {
            let acked = acknowledged[client]
            #expect(acked.count == perClient, "client \(client) got \(acked.count) replies")
            #expect(zip(acked, acked.dropFirst()).allSatisfy { $0 < $1 }, "client \(client): replies out of order")
            let mismatch = (0..<min(seen[client].count, acked.count)).first { seen[client][$0] != acked[$0] }
            #expect(seen[client].count == acked.count && mismatch == nil,
                    "client \(client): the watcher saw \(seen[client].count) actions, acknowledged \(acked.count), first difference at \(mismatch.map(String.init) ?? "the end")")
        }
        let statistics = try await bus.client(["stats", "--json"])
        let control = object(statistics.stdout)["control"] as? [String: Any]
        #expect(control?["errors"] as? Int == 0)
        #expect(control?["watchersDropped"] as? Int == 0)
        #expect(await bus.stop() == 0)
    }

    /// The id, client and number of a watched `load/n` line, read at the fixed places the
    /// bus's compact, key-sorted output puts them.
    private func watchedAction(_ line: ArraySlice<UInt8>) -> (id: Int, c: Int, n: Int)? {
        let prefix = Array(#"{"action":{"cause":null,"id":"#.utf8)
        guard line.count > prefix.count + 20, line.starts(with: prefix) else { return nil }
        var index = line.startIndex + prefix.count
        func number(skipping count: Int) -> Int? {
            index += count
            var value = 0
            let start = index
            while index < line.endIndex, line[index] >= 48, line[index] <= 57 {
                value = value * 10 + Int(line[index] - 48)
                index += 1
            }
            return index > start ? value : nil
        }
        guard let id = number(skipping: 0), let c = number(skipping: #","payload":{"c":"#.utf8.count),
              let n = number(skipping: #","n":"#.utf8.count) else { return nil }
        return (id, c, n)
    }

    /// A flood of malformed and oversized lines gets error replies and leaves the bus healthy.
    @Test func floodOfBadLinesKeepsTheBusHealthy() async throws {
        // Not in the idle scheduling class (unlike the opt-in load test): beside CPU hogs an
        // idle-class bus never runs, and this is a correctness test, a few thousand lines.
        let bus = try await RunningBus.start()
        func round() async throws -> [String: Int] {
            try await (0..<4).asyncMap { flooder in
                let connection = try await bus.connect()
                return Task {
                    try await onThread {
                        let oversized = [UInt8](repeating: UInt8(ascii: "x"), count: 3 << 19) + [10]
                        var seeded = SeededBytes(seed: UInt64(flooder + 1))
                        let garbage = (0..<10).map { _ in seeded.line(length: 200) }
                        // Written from a thread of its own while this one reads the replies, so
                        // neither side waits for the other.
                        let writer = Thread {
                            for index in 0..<1000 {
                                switch index % 100 {
                                case 0: try? connection.write(oversized)
                                case 1: try? connection.write(garbage[index / 100])
                                default: try? connection.write("{\"op\":\"dispatch\",\"action\":{\"type\":\n")
                                }
                            }
                            try? connection.write(#"{"op":"state"}"# + "\n")
                        }
                        writer.start()
                        var codes: [String: Int] = [:]
                        while let line = try connection.readLine(timeout: .seconds(30)) {
                            let reply = object(line)
                            if reply["ok"] as? Bool == true { return codes }
                            let code = (reply["error"] as? [String: Any])?["code"] as? String ?? "unparsed"
                            codes[code, default: 0] += 1
                        }
                        return codes
                    }
                }
            }.asyncReduce()
        }
        let first = try await round()
        #expect(first == ["line-too-long": 40, "malformed-json": 4 * 1000 - 40])
        let afterFirst = bus.residentKiB
        let second = try await round()
        #expect(second == first)
        let afterSecond = bus.residentKiB
        #expect(afterSecond - afterFirst < 8 << 10, "resident memory grew from \(afterFirst) KiB to \(afterSecond) KiB")
        let sent = try await bus.client(["send", "still/alive"])
        #expect(sent.status == 0)
        #expect(await bus.stop() == 0)
    }

    /// A watcher that never reads is dropped and counted; dispatching and other watchers go on.
    @Test func watcherThatNeverReadsIsDropped() async throws {
        let bus = try await RunningBus.start()
        let stuck = try await bus.connect()
        _ = try await onThread { try stuck.write(#"{"op":"watch","actions":"*"}"# + "\n") }
        #expect(try await bus.waitForWatchers(1))
        let count = 40_000
        let dispatcher = try await bus.connect()
        let replies = try await onThread {
            let padding = String(repeating: "p", count: 400)
            var replies = 0
            var sent = 0
            while replies < count {
                var batch = ""
                while sent < count, sent - replies < 64 {
                    batch += #"{"op":"dispatch","action":{"type":"flood/n","payload":"\#(padding)"}}"# + "\n"
                    sent += 1
                }
                if !batch.isEmpty { try dispatcher.write(batch) }
                guard let reply = try dispatcher.readLine(), reply.contains("\"ok\":true") else { break }
                replies += 1
            }
            return replies
        }
        #expect(replies == count)
        #expect(await bus.process.wait { $0.stderr.contains("dropped a watcher") })
        let stats = object(try await onThread { try dispatcher.request(#"{"op":"stats"}"#) })
        let control = (stats["stats"] as? [String: Any])?["control"] as? [String: Any]
        #expect(control?["watchersDropped"] as? Int == 1)
        #expect(bus.residentKiB < 100 << 10, "resident memory \(bus.residentKiB) KiB")
        #expect(await bus.stop() == 0)
    }
}

/// Deterministic bytes for hostile lines (no newline inside, so each is one line).
struct SeededBytes {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func line(length: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        for _ in 0..<length {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let byte = UInt8(truncatingIfNeeded: state >> 56)
            bytes.append(byte == 10 ? 0 : byte)
        }
        return bytes + [10]
    }
}

extension Sequence where Element: Sendable {
    /// Maps in order, awaiting each element's transform.
    func asyncMap<T>(_ transform: (Element) async throws -> T) async throws -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}

extension Array where Element == Task<[String: Int], any Error> {
    /// Sums the counts the tasks return, key by key.
    func asyncReduce() async throws -> [String: Int] {
        var total: [String: Int] = [:]
        for task in self { total.merge(try await task.value, uniquingKeysWith: +) }
        return total
    }
}
