import Foundation
import SwitchyardTestSupport
import Testing

/// Damage to the journal is detected on start and by `journal verify`, named by file and byte,
/// and `journal verify --repair` moves it aside without deleting anything or reusing an id.
struct JournalDamageTests {
    /// One way a journal gets damaged after a clean stop.
    enum Damage: String, CaseIterable, Sendable {
        case deleteNewestSegment, emptyNewestSegment, cutLastLines, changeADigit, swapSegments, changeASnapshot

        func apply(to journal: String) throws {
            let files = try FileManager.default.contentsOfDirectory(atPath: journal).sorted()
            let segments = files.filter { $0.hasPrefix("segment-") }.map { journal + "/" + $0 }
            let snapshots = files.filter { $0.hasPrefix("snapshot-") }.map { journal + "/" + $0 }
            let newest = try #require(segments.last)
            switch self {
            case .deleteNewestSegment:
                try FileManager.default.removeItem(atPath: newest)
            case .emptyNewestSegment:
                try Data().write(to: URL(fileURLWithPath: newest))
            case .cutLastLines:
                var lines = try String(contentsOfFile: newest, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
                lines.removeLast(3)
                try (lines.joined(separator: "\n") + "\n").write(toFile: newest, atomically: false, encoding: .utf8)
            case .changeADigit:
                let text = try String(contentsOfFile: newest, encoding: .utf8)
                #expect(text.contains(#""n":12"#))
                try text.replacingOccurrences(of: #""n":12"#, with: #""n":13"#).write(toFile: newest, atomically: false, encoding: .utf8)
            case .swapSegments:
                let older = segments[segments.count - 2]
                let first = try Data(contentsOf: URL(fileURLWithPath: older))
                let second = try Data(contentsOf: URL(fileURLWithPath: newest))
                try second.write(to: URL(fileURLWithPath: older))
                try first.write(to: URL(fileURLWithPath: newest))
            case .changeASnapshot:
                let latest = try #require(snapshots.last)
                let text = try String(contentsOfFile: latest, encoding: .utf8)
                #expect(text.contains(#""time":"2"#))
                try text.replacingOccurrences(of: #""time":"2"#, with: #""time":"3"#).write(toFile: latest, atomically: false, encoding: .utf8)
            }
        }
    }

    /// Twelve counted actions with a snapshot every five, then a clean stop.
    private func journaledBus() async throws -> (RunningBus, lastID: Int) {
        let bus = try await RunningBus.start(bus: #"{"name": "damage", "journal": {"fsync": "always", "snapshotEvery": 5}}"#,
                                             plugins: #"[{"name": "count", "kind": "logger", "to": "stderr", "actions": "none/*"}]"#)
        var lastID = 0
        for n in 1...12 {
            let sent = try await bus.client(["send", "count/n", #"{"n":\#(n),"total":\#(n * 10)}"#])
            #expect(sent.status == 0, "send \(n): \(sent.stderr)")
            lastID = max(lastID, integer(after: "id", in: ArraySlice(sent.stdout.utf8)) ?? 0)
        }
        #expect(await bus.stop() == 0)
        return (bus, lastID)
    }

    /// Each damage stops start-up and verify with exit 1 naming the file and byte; the repair
    /// moves it aside, the bus starts again, and the next id is above every id given out before.
    @Test(.scaledTimeLimit(minutes: 3), arguments: Damage.allCases)
    func damageIsDetectedAndRepaired(damage: Damage) async throws {
        let (bus, lastID) = try await journaledBus()
        let journal = bus.dataPath + "/journal"
        try damage.apply(to: journal)

        let verified = try await bus.client(["journal", "verify"])
        #expect(verified.status == 1, "\(damage): \(verified.stdout)")
        #expect(verified.stderr.contains("data/journal/") && verified.stderr.contains("byte") || verified.stderr.contains("snapshot-"), "\(verified.stderr)")
        #expect(verified.stderr.contains("--repair"))
        let refused = try SwitchyardProcess(["run", bus.configPath], directory: bus.directory.url)
        #expect(await refused.exitStatus() == 1)
        #expect(refused.stderr.contains("data/journal/") && refused.stderr.contains("--repair"), "\(refused.stderr)")

        let before = try FileManager.default.subpathsOfDirectory(atPath: journal).count
        let repaired = try await bus.client(["journal", "verify", "--repair"])
        #expect(repaired.status == 0, "\(repaired.stderr)")
        #expect(repaired.stdout.contains("moved aside") || repaired.stdout.contains("repaired"), "\(repaired.stdout)")
        let after = try FileManager.default.subpathsOfDirectory(atPath: journal).filter { !$0.hasSuffix(".tmp") }.count
        #expect(after >= before, "a repair deletes nothing")
        #expect(try await bus.client(["journal", "verify"]).status == 0)

        let restarted = try await bus.restart()
        let sent = try await restarted.client(["send", "count/n", #"{"n":13}"#])
        let newID = integer(after: "id", in: ArraySlice(sent.stdout.utf8)) ?? 0
        #expect(newID > lastID, "ids never go backwards: \(newID) after \(lastID)")
        #expect(await restarted.stop() == 0)
        #expect(try await bus.client(["journal", "verify"]).status == 0)
    }

    /// A torn final line after the last flush is the one damage repaired silently: a warning, and
    /// every acknowledged action is kept.
    @Test(.scaledTimeLimit(minutes: 2)) func tornFinalLineIsRepairedOnStart() async throws {
        let (bus, lastID) = try await journaledBus()
        let journal = bus.dataPath + "/journal"
        let newest = try #require(try FileManager.default.contentsOfDirectory(atPath: journal).filter { $0.hasPrefix("segment-") }.max())
        let handle = try #require(FileHandle(forWritingAtPath: journal + "/" + newest))
        handle.seekToEndOfFile()
        handle.write(Data(#"0badc0de {"cause":null,"id":99,"pay"#.utf8))
        handle.closeFile()
        #expect(try await bus.client(["journal", "verify"]).stdout.contains("torn last line"))
        let restarted = try await bus.restart()
        #expect(restarted.process.stderr.contains("dropped a torn last line"))
        #expect(await restarted.stop() == 0)
        let ids = try await journalActions(restarted).compactMap { $0["id"] as? Int }
        #expect(Array(1...lastID).allSatisfy(ids.contains))
    }

    /// A journal written before checksums (bare JSON lines, no mark) still loads, and the bus
    /// continues it with checksummed segments.
    @Test(.scaledTimeLimit(minutes: 2)) func journalWithoutChecksumsStillLoads() async throws {
        let directory = try TemporaryDirectory()
        let journal = directory.url.appendingPathComponent("data/journal").path
        try FileManager.default.createDirectory(atPath: journal, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory.url.appendingPathComponent("data").path)
        let lines = (1...3).map { #"{"cause":null,"id":\#($0),"payload":{"n":\#($0)},"source":"control","time":"2026-01-01T00:00:0\#($0).000Z","type":"old/n"}"# }
        try (lines.joined(separator: "\n") + "\n").write(toFile: journal + "/segment-00000000000000000001.jsonl", atomically: false, encoding: .utf8)
        let bus = try await RunningBus.start(bus: #"{"name": "old"}"#, in: directory)
        let sent = try await bus.client(["send", "new/n"])
        #expect(integer(after: "id", in: ArraySlice(sent.stdout.utf8)) ?? 0 > 3)
        #expect(await bus.stop() == 0)
        let verified = try await bus.client(["journal", "verify"])
        #expect(verified.status == 0, "\(verified.stderr)")
        let types = try await journalActions(bus).compactMap { $0["type"] as? String }
        #expect(types.prefix(3) == ["old/n", "old/n", "old/n"])
    }
}

/// Whatever the control socket accepts, the bus reads back after a restart.
struct JournalDepthTests {
    /// A payload as deep as the control socket accepts is journaled and the bus restarts on it.
    @Test(.timeLimit(.minutes(2))) func deepestAcceptedPayloadSurvivesARestart() async throws {
        let bus = try await RunningBus.start(bus: #"{"name": "deep", "journal": {"fsync": "always"}}"#)
        let client = try await bus.connect()
        // The request's own two levels ({"op":…,"action":{…}}) count against the door's limit.
        var depth = 510
        var accepted = 0
        while depth > 0 {
            let payload = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            let reply = object(try await onThread { try client.request(#"{"op":"dispatch","action":{"type":"deep/n","payload":\#(payload)}}"#) })
            if reply["ok"] as? Bool == true {
                accepted = depth
                break
            }
            depth -= 1
        }
        #expect(accepted >= 500)
        #expect(await bus.stop() == 0)
        let restarted = try await bus.restart()
        #expect(await restarted.stop() == 0)
        #expect(try await bus.client(["journal", "verify"]).status == 0)
    }
}
