import Foundation
import SwitchyardTestSupport
import Testing

/// The journal of a real bus process, through `switchyard journal` and restarts.
@Suite(.serialized)
struct JournalCommandTests {
    /// Sends `count` actions through the socket and stops the bus cleanly.
    private func run(_ bus: RunningBus, actions count: Int) async throws {
        let client = try await bus.connect()
        _ = try await onThread {
            for n in 0..<count { _ = try client.request(#"{"op":"dispatch","action":{"type":"note/n","payload":\#(n)}}"#) }
        }
        #expect(await bus.stop() == 0)
    }

    private func segments(_ bus: RunningBus) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: bus.dataPath + "/journal").filter { $0.hasPrefix("segment-") }.sorted()
    }

    /// `show`, `verify` and `compact` work on a bus's journal, and a restart continues the sequence.
    @Test func showVerifyCompact() async throws {
        let bus = try await RunningBus.start(bus: #"{"name": "journal", "journal": {"snapshotEvery": 5}}"#)
        try await run(bus, actions: 12)
        let shown = try await journalActions(bus)
        let ids = shown.compactMap { $0["id"] as? Int }
        #expect(ids == Array(1...ids.count))
        #expect(shown.first?["type"] as? String == "bus/started")
        #expect(shown.last?["type"] as? String == "bus/stopping")
        #expect(shown.filter { $0["type"] as? String == "note/n" }.compactMap { $0["payload"] as? Int } == Array(0..<12))

        let verified = try await bus.client(["journal", "verify"])
        #expect(verified.status == 0)
        #expect(verified.stdout.contains("ok:"))
        #expect(verified.stdout.contains("\(ids.count) actions (1-\(ids.count))"))

        let before = try segments(bus).count
        let compacted = try await bus.client(["journal", "compact"])
        #expect(compacted.status == 0)
        #expect(compacted.stdout.contains("removed"))
        #expect(try segments(bus).count < before)
        #expect(try await bus.client(["journal", "verify"]).status == 0)

        let restarted = try await bus.restart()
        let sent = try await restarted.client(["send", "note/after"])
        #expect(integer(after: "id", in: ArraySlice(sent.stdout.utf8)).map { $0 > ids.count } == true)
        #expect(await restarted.stop() == 0)
    }

    /// A damaged segment is reported with its line and byte offset, and the bus refuses to start.
    @Test func corruptSegmentIsReportedAndRefused() async throws {
        let bus = try await RunningBus.start(bus: #"{"name": "journal", "journal": {"snapshotEvery": 1000}}"#)
        try await run(bus, actions: 5)
        let journal = bus.dataPath + "/journal/"
        for name in try FileManager.default.contentsOfDirectory(atPath: journal) where name.hasPrefix("snapshot-") {
            try FileManager.default.removeItem(atPath: journal + name)
        }
        let segment = try #require(try segments(bus).first)
        var lines = try String(contentsOfFile: journal + segment, encoding: .utf8).components(separatedBy: "\n")
        // Line 1 is the segment's header; line 4 holds action 3.
        let offset = lines[0...2].reduce(0) { $0 + $1.utf8.count + 1 }
        lines[3] = #"{"cause":null,"id":3,"pay"#
        try lines.joined(separator: "\n").write(toFile: journal + segment, atomically: false, encoding: .utf8)

        let verified = try await bus.client(["journal", "verify"])
        #expect(verified.status == 1)
        #expect(verified.stderr.contains("\(segment): line 4 (byte \(offset))"))
        let shown = try await bus.client(["journal", "show"])
        #expect(shown.status == 1)
        #expect(shown.stdout.split(separator: "\n").count == 2)

        let refused = try SwitchyardProcess(["run", bus.configPath], directory: bus.directory.url)
        #expect(await refused.exitStatus() == 1)
        #expect(refused.stderr.contains("journal is corrupt"))
        #expect(refused.stderr.contains("line 4"))
        #expect(refused.stderr.contains("switchyard journal verify"))
    }

    /// A torn last line is dropped on start with a warning, and nothing else is lost.
    @Test func tornLastLineIsTolerated() async throws {
        let bus = try await RunningBus.start(bus: #"{"name": "journal", "journal": {"snapshotEvery": 1000}}"#)
        try await run(bus, actions: 3)
        let segment = try #require(try segments(bus).last)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: bus.dataPath + "/journal/" + segment))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"cause":null,"id":99,"payl"#.utf8))
        try handle.close()
        let verified = try await bus.client(["journal", "verify"])
        #expect(verified.status == 0)
        #expect(verified.stdout.contains("torn last line"))

        let restarted = try await bus.restart()
        #expect(restarted.process.stderr.contains("dropped a torn last line"))
        #expect(await restarted.stop() == 0)
        let shown = try await journalActions(restarted)
        #expect(shown.filter { $0["type"] as? String == "note/n" }.count == 3)
        #expect(try await restarted.client(["journal", "verify"]).stdout.contains("torn") == false)
    }

    /// The journal commands need a data directory: a wrong command line exits 2.
    @Test func journalUsage() async throws {
        let bus = try SwitchyardProcess(["journal", "rewind"])
        #expect(await bus.exitStatus() == 2)
        let none = try SwitchyardProcess(["journal"])
        #expect(await none.exitStatus() == 2)
    }
}
