import Foundation
import SwitchyardTestSupport
import Testing

/// After start, the bus checks the journal behind the snapshot it restored from (which the
/// restore does not read) and reports damage there: a log line, `bus/journal-damaged`, stats.
@Suite(.serialized)
struct OlderJournalCheckTests {
    private static let bus = #"{"name": "older", "journal": {"snapshotEvery": 5}}"#
    private static let logger = #"[{"name": "log", "kind": "logger", "format": "json"}]"#

    /// A bus with several segments and snapshots, stopped; returns it and its oldest segment.
    private func recorded() async throws -> (RunningBus, String) {
        let bus = try await RunningBus.start(bus: Self.bus, plugins: Self.logger)
        let client = try await bus.connect()
        _ = try await onThread {
            for n in 0..<30 { _ = try client.request(#"{"op":"dispatch","action":{"type":"note/n","payload":\#(n)}}"#) }
        }
        #expect(await bus.stop() == 0)
        let journal = bus.dataPath + "/journal"
        let segments = try FileManager.default.contentsOfDirectory(atPath: journal).filter { $0.hasPrefix("segment-") }.sorted()
        #expect(segments.count >= 3, "\(segments)")
        return (bus, journal + "/" + (try #require(segments.first)))
    }

    /// A changed byte in the oldest segment: the bus starts, then says so on its log, as
    /// `bus/journal-damaged` naming the file, and in `stats`; it keeps taking actions.
    @Test func damageBehindTheSnapshotIsReported() async throws {
        let (bus, oldest) = try await recorded()
        let text = try String(contentsOfFile: oldest, encoding: .utf8)
        let damaged = text.replacingOccurrences(of: #""type":"note/n""#, with: #""type":"note/N""#)
        #expect(damaged != text)
        try damaged.write(toFile: oldest, atomically: false, encoding: .utf8)

        let restarted = try await bus.restart()
        #expect(await restarted.process.wait { $0.stderr.contains("journal: damage behind the restored snapshot") }, "\(restarted.process.stderr)")
        #expect(await restarted.process.wait { $0.stdout.contains("bus/journal-damaged") }, "\(restarted.process.stdout)")
        let report = try #require(restarted.process.stdout.split(separator: "\n").map { object(String($0)) }
            .first { $0["type"] as? String == "bus/journal-damaged" })
        let payload = try #require(report["payload"] as? [String: Any])
        #expect((payload["file"] as? String)?.hasSuffix(oldest.split(separator: "/").last.map(String.init) ?? "?") == true, "\(payload)")
        #expect(payload["offset"] is Int)
        let stats = try await restarted.client(["stats", "--json"])
        let journal = (object(stats.stdout)["journal"] as? [String: Any]) ?? [:]
        #expect((journal["olderDamage"] as? String)?.contains("journal is corrupt") == true, "\(stats.stdout)")
        #expect(try await restarted.client(["send", "note/after"]).status == 0)
        #expect(await restarted.stop() == 0)
    }

    /// A sound journal: the check says so once, and reports no damage.
    @Test func soundJournalIsCheckedQuietly() async throws {
        let (bus, _) = try await recorded()
        let restarted = try await bus.restart()
        #expect(await restarted.process.wait { $0.stderr.contains("behind the restored snapshot: sound") }, "\(restarted.process.stderr)")
        #expect(!restarted.process.stderr.contains("checked the 0 older segments"), "\(restarted.process.stderr)")
        #expect(!restarted.process.stdout.contains("bus/journal-damaged"))
        #expect(await restarted.stop() == 0)
    }
}
