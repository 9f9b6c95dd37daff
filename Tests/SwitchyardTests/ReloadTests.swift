import Foundation
import Testing
@testable import Switchyard
@testable import SwitchyardBus

/// Live reload: the plan by plugin name, and a running bus swapping its configuration.
struct ReloadTests {
    private func declaration(_ name: String, _ kind: String = "echo", settings: [String: JSON] = [:],
                             restart: RestartPolicy = RestartPolicy()) -> PluginDeclaration {
        PluginDeclaration(name: name, kind: kind, restart: restart, settings: settings, path: "plugins[0]")
    }

    /// Plugins are compared by name: removed, added, restarted on any change, else unchanged.
    @Test func planByName() {
        let old = [declaration("a"), declaration("b"), declaration("c", settings: ["prefix": "x"]), declaration("d", "counter")]
        let new = [declaration("c", settings: ["prefix": "y"]), declaration("a"), declaration("e"), declaration("d", "echo")]
        let plan = ReloadPlan(from: old, to: new)
        #expect(plan.removed == ["b"])
        #expect(plan.added == ["e"])
        #expect(plan.restarted == ["c", "d"])
        #expect(plan.unchanged == ["a"])
        #expect(plan.droppedSlices == ["b", "d"])
        #expect(!plan.changesNothing)
    }

    /// A different restart policy restarts the plugin; a plugin moved in the file does not.
    @Test func restartPolicyCountsAsAChange() {
        var moved = declaration("a")
        moved.path = "plugins[5]"
        #expect(ReloadPlan(from: [declaration("a")], to: [moved]).changesNothing)
        let plan = ReloadPlan(from: [declaration("a")], to: [declaration("a", restart: RestartPolicy(mode: .always))])
        #expect(plan.restarted == ["a"])
        #expect(plan.droppedSlices.isEmpty)
    }

    /// A running bus removes, adds and restarts plugins by name, keeps the rest, and says `bus/reloaded`.
    @Test func reloadSwapsPlugins() async throws {
        let registry = journalRegistry()
        let first = try BusConfiguration.parse("""
            {"plugins": [{"name": "keep", "kind": "echo", "prefix": "k:"}, {"name": "change", "kind": "echo", "prefix": "old:"},
                         {"name": "total", "kind": "counter"}]}
            """, file: "a.json", environment: [:], knownKinds: registry.kinds)
        let bus = try Bus(configuration: first, registry: registry, log: LogSink(minimumLevel: .error))
        let running = Task { try await bus.run() }
        await bus.waitUntilReady()
        await bus.dispatch(BusAction(type: "count/add", payload: 3, source: "test"))
        #expect(bus.currentState["total"] != nil)
        let keepRunner = bus.runners.first { $0.name == "keep" }

        let second = try BusConfiguration.parse("""
            {"bus": {"stopTimeout": 3}, "plugins": [{"name": "added", "kind": "counter"}, {"name": "change", "kind": "echo", "prefix": "new:"},
                         {"name": "keep", "kind": "echo", "prefix": "k:"}]}
            """, file: "b.json", environment: [:], knownKinds: registry.kinds)
        let reloads = bus.actions(matching: TypePattern("bus/reloaded")!)
        let report = try await bus.reload(second)
        #expect(report.added == ["added"])
        #expect(report.removed == ["total"])
        #expect(report.restarted == ["change"])
        #expect(report.unchanged == ["keep"])
        #expect(report.appliedSettings == ["bus.stopTimeout"])
        #expect(bus.configuration.plugins.map(\.name) == ["added", "change", "keep"])
        #expect(bus.runners.first { $0.name == "keep" } === keepRunner)
        var iterator = reloads.makeAsyncIterator()
        let reloaded = await iterator.next()
        #expect(reloaded?.payload["droppedSlices"] == ["total"])
        #expect(bus.currentState["total"] == nil)
        #expect(bus.currentState["added"]?["count"] == 0)

        let all = bus.actions()
        await bus.dispatch(BusAction(type: "ping/hi", payload: "x", source: "test"))
        var replies: [String: JSON] = [:]
        for await pong in all where pong.type.hasSuffix("/pong") {
            replies[pong.source] = pong.payload
            if replies.count == 2 { break }
        }
        #expect(replies == ["keep": "k:x", "change": "new:x"])
        #expect(bus.statistics.plugins.map(\.name) == ["added", "change", "keep"])
        bus.stop()
        try await running.value
    }

    /// An invalid configuration changes nothing.
    @Test func invalidConfigurationChangesNothing() async throws {
        let registry = journalRegistry()
        let first = try BusConfiguration.parse(#"{"plugins": [{"name": "keep", "kind": "echo"}]}"#,
                                               file: "a.json", environment: [:], knownKinds: registry.kinds)
        let bus = try Bus(configuration: first, registry: registry, log: LogSink(minimumLevel: .error))
        let running = Task { try await bus.run() }
        await bus.waitUntilReady()
        // Parsed with an empty registry check, so the bad setting reaches the bus.
        let broken = try BusConfiguration.parse(#"{"plugins": [{"name": "keep", "kind": "echo", "prefx": 1}]}"#,
                                                file: "b.json", environment: [:], knownKinds: registry.kinds)
        do {
            try await bus.reload(broken)
            Issue.record("reloaded an invalid configuration")
        } catch let error as ConfigurationError {
            #expect(error.description.contains("b.json: plugins[0].prefx"))
        }
        #expect(bus.configuration.file == "a.json")
        #expect(bus.statistics.plugins.first?.status == .running)
        bus.stop()
        try await running.value
    }

    /// Settings that cannot change while the bus runs (name, data directory, inbox) are kept.
    @Test func dataDirectoryIsKept() async throws {
        let directory = try JournalTestDirectory()
        let registry = journalRegistry()
        let first = try journaledConfiguration(directory.path + "/one", registry: registry)
        let bus = try Bus(configuration: first, registry: registry, services: BusServices(), log: LogSink(minimumLevel: .error))
        let running = Task { try await bus.run() }
        await bus.waitUntilReady()
        var second = try journaledConfiguration(directory.path + "/two", journal: #"{"fsync": "never", "snapshotEvery": 5}"#, registry: registry)
        second.bus.inboxCapacity = 99
        second.bus.name = "renamed"
        let report = try await bus.reload(second)
        #expect(report.keptSettings.count == 3)
        #expect(report.keptSettings[0].contains("bus.name"))
        #expect(report.keptSettings[1].contains("bus.dataDirectory"))
        #expect(bus.configuration.bus.name == "journaled")
        #expect(report.appliedSettings == ["bus.journal"])
        #expect(bus.configuration.bus.dataDirectory == directory.path + "/one")
        #expect(bus.statistics.journal?.fsync == .never)
        #expect(report.description.contains("kept bus.dataDirectory"))
        bus.stop()
        try await running.value
    }

    /// Reloading a bus that is not running is refused.
    @Test func reloadBeforeRunning() async throws {
        let bus = try makeBus(#"{"plugins": []}"#)
        await #expect(throws: BusError.notRunning) { try await bus.reload(bus.configuration) }
    }

    /// The slices a reload drops stay dropped when the journal is replayed.
    @Test func droppedSlicesReplay() async throws {
        let directory = try JournalTestDirectory()
        let registry = journalRegistry()
        let withCounter = try journaledConfiguration(directory.path + "/data", plugins: #"[{"name": "tally", "kind": "counter"}]"#, registry: registry)
        let bus = try Bus(configuration: withCounter, registry: registry, services: BusServices(), log: LogSink(minimumLevel: .error))
        let running = Task { try await bus.run() }
        await bus.waitUntilReady()
        await bus.dispatch(BusAction(type: "count/add", payload: 5, source: "test"))
        try await bus.reload(journaledConfiguration(directory.path + "/data", plugins: "[]", registry: registry))
        try await bus.reload(withCounter)
        await bus.dispatch(BusAction(type: "count/add", payload: 2, source: "test"))
        let live = bus.currentState
        #expect(live.value(atPath: "tally.total") == 2)
        // No final snapshot: the restart below must replay the reloads.
        bus.stop()
        try await running.value
        for name in directory.files(in: "data/journal") where name.hasPrefix("snapshot-") {
            try FileManager.default.removeItem(atPath: directory.path + "/data/journal/" + name)
        }
        let restarted = try Bus(configuration: withCounter, registry: registry, services: BusServices(), log: LogSink(minimumLevel: .error))
        #expect(restarted.currentState == live)
    }
}
