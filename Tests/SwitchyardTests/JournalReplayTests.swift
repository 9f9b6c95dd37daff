import Foundation
import SwitchyardTestSupport
import Synchronization
import Testing
@testable import Switchyard
@testable import SwitchyardBus

/// A bus with a journal: restarts restore the state by replay, through reducers only.
struct JournalReplayTests {
    private let quiet = LogSink(minimumLevel: .error)

    private func makeBus(_ directory: JournalTestDirectory, plugin: String, journal: String = #"{"fsync": "always", "snapshotEvery": 1000}"#,
                         log: LogSink? = nil) throws -> Bus {
        let registry = journalRegistry()
        let configuration = try journaledConfiguration(directory.path + "/data", plugins: #"[{"name": "\#(plugin)", "kind": "counter"}]"#,
                                                       journal: journal, registry: registry)
        return try Bus(configuration: configuration, registry: registry, services: BusServices(), log: log ?? quiet)
    }

    private func add(_ values: some Sequence<Int>, to bus: Bus) async {
        for value in values {
            await bus.dispatch(BusAction(type: "count/add", payload: .integer(Int64(value)), source: "test"))
        }
    }

    private func seen(_ plugin: String) -> Int {
        CounterPlugin.seen.withLock { $0[plugin] ?? 0 }
    }

    /// A restart restores the state, continues the sequence, and hands no plugin a replayed action.
    @Test func restartRestoresStateAndContinuesSequence() async throws {
        let directory = try JournalTestDirectory()
        let first = try makeBus(directory, plugin: "restart-a")
        var state = JSON.null
        try await whileRunning(first) {
            await add(1...50, to: first)
            state = first.currentState
            #expect(state.value(atPath: "restart-a.total") == .integer(1275))
        }
        let lastID = try #require(first.statistics.journal?.lastSequence)

        let second = try makeBus(directory, plugin: "restart-a")
        #expect(second.currentState == state)
        let before = seen("restart-a")
        try await whileRunning(second) {
            let id = await second.dispatchReturningID(BusAction(type: "count/add", payload: 7, source: "test"))
            #expect(id.map { $0 > lastID } == true)
            #expect(second.currentState.value(atPath: "restart-a.total") == .integer(1282))
        }
        // Only the one new action reached the plugin; the fifty replayed ones did not.
        #expect(seen("restart-a") - before == 1)
    }

    /// The files a `kill -9` would leave after acknowledged dispatches restore the acknowledged state.
    @Test func crashKeepsEveryAcknowledgedAction() async throws {
        let directory = try JournalTestDirectory()
        let bus = try makeBus(directory, plugin: "crash-a", journal: #"{"fsync": "always", "snapshotEvery": 7}"#)
        let copy = try JournalTestDirectory()
        var acknowledged = JSON.null
        try await whileRunning(bus) {
            await add(1...40, to: bus)
            acknowledged = bus.currentState
            // Copy the files as they are now, while the bus still runs and holds its lock.
            try FileManager.default.copyItem(atPath: directory.path + "/data", toPath: copy.path + "/data")
        }

        let restored = try makeBus(copy, plugin: "crash-a")
        #expect(restored.currentState == acknowledged)
        #expect(restored.currentState.value(atPath: "crash-a.count") == 40)
    }

    /// Snapshots come every `snapshotEvery` actions, the newest two are kept, and the journal verifies.
    @Test func snapshotsAreWrittenAndPruned() async throws {
        let directory = try JournalTestDirectory()
        let bus = try makeBus(directory, plugin: "snap-a", journal: #"{"fsync": "interval", "snapshotEvery": 10}"#)
        try await whileRunning(bus) {
            await add(1...45, to: bus)
        }
        let snapshots = directory.files(in: "data/journal").filter { $0.hasPrefix("snapshot-") }
        #expect(snapshots.count == 2)
        let report = try JournalDirectory(dataDirectory: directory.path + "/data").verify()
        #expect(report.lastSequence == bus.statistics.journal?.lastSequence)
        #expect(report.snapshots.last == report.lastSequence)
        #expect(report.segments > 3)
        let restarted = try makeBus(directory, plugin: "snap-a")
        #expect(restarted.currentState.value(atPath: "snap-a.total") == .integer(1035))
    }

    /// A corrupt journal stops the bus from being built, with the file, line and offset.
    @Test func corruptJournalRefusesToStart() async throws {
        let directory = try JournalTestDirectory()
        let bus = try makeBus(directory, plugin: "corrupt-a")
        try await whileRunning(bus) {
            await add(1...3, to: bus)
        }
        let segment = try #require(directory.files(in: "data/journal").first { $0.hasPrefix("segment-") })
        let path = directory.path + "/data/journal/" + segment
        var lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        lines[1] = "not json"
        try lines.joined(separator: "\n").write(toFile: path, atomically: false, encoding: .utf8)
        // The final snapshot covers everything; without it the restore must read the damage.
        for snapshot in directory.files(in: "data/journal") where snapshot.hasPrefix("snapshot-") {
            try FileManager.default.removeItem(atPath: directory.path + "/data/journal/" + snapshot)
        }
        do {
            _ = try makeBus(directory, plugin: "corrupt-a")
            Issue.record("built a bus on a corrupt journal")
        } catch let error as JournalError {
            #expect(error.isCorruption)
            #expect(error.description.contains("\(segment): line 2"))
        }
    }

    /// Two buses never share a data directory.
    @Test func secondBusOnTheSameDirectoryIsRefused() throws {
        let directory = try JournalTestDirectory()
        let first = try makeBus(directory, plugin: "lock-a")
        do {
            _ = try makeBus(directory, plugin: "lock-a")
            Issue.record("two buses on one data directory")
        } catch let error as JournalError {
            #expect(error.isInUse)
        }
        #expect(first.currentState["lock-a"] != nil)
    }

    /// A snapshot keeps the slices of plugins the bus still has and starts new ones from scratch.
    @Test func snapshotAdoptsCurrentSlices() {
        let counter = CounterPlugin.self
        let slice = try? counter.init(name: "kept", settings: PluginSettings(PluginDeclaration(name: "kept", kind: "counter", path: "plugins[0]"))).slice
        guard let slice else {
            Issue.record("no slice")
            return
        }
        let adopted = BusStateModel.adopt(["kept": ["total": 9], "gone": 1], slices: [("kept", slice), ("fresh", slice)])
        #expect(adopted == ["kept": ["total": 9], "fresh": slice.initial])
    }

    /// A journal that can no longer write stops the bus with an error, and the log says why.
    @Test(.scaledTimeLimit(minutes: 1)) func journalFailureStopsTheBus() async throws {
        let directory = try JournalTestDirectory()
        let log = LogCollector()
        let bus = try makeBus(directory, plugin: "fail-a", journal: #"{"fsync": "always", "snapshotEvery": 1}"#, log: log.sink)
        let running = Task { try await bus.run() }
        await bus.waitUntilReady()
        await add(1...2, to: bus)
        // Every batch starts a new segment (a snapshot is due after each), and there is
        // nowhere left to create it.
        try FileManager.default.moveItem(atPath: directory.path + "/data/journal", toPath: directory.path + "/moved-away")
        await add(3...3, to: bus)
        var message = ""
        do {
            try await running.value
        } catch {
            message = "\(error)"
        }
        #expect(message.contains("the journal failed") && message.contains("ENOENT"), "\(message)")
        let logged = log.lines.contains { $0.contains("journal:") && $0.contains("stopping the bus") && $0.contains("segment-") }
        #expect(logged, "\(log.lines)")
        #expect(bus.statistics.journal?.failure != nil)
    }
}
