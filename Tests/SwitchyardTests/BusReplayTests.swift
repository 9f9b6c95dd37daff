import Foundation
import SwitchyardTestSupport
import Testing
@testable import Switchyard
@testable import SwitchyardBus

/// Recorded actions fed into a bus: kept as recorded, reduced with or without the plugins, and
/// compared with ``JournalComparison``.
struct BusReplayTests {
    private let configuration = #"{"bus": {"name": "replay"}, "plugins": [{"name": "echo", "kind": "echo"}]}"#

    private func recorded(_ id: UInt64, _ type: String, source: String = "control", cause: UInt64? = nil) -> BusAction {
        BusAction(type: type, payload: .string("p\(id)"), id: id, time: Date(timeIntervalSince1970: 1_700_000_000.5 + Double(id)),
                  source: source, cause: cause)
    }

    /// Without running the bus, replayed actions are reduced as recorded (time and source kept),
    /// no plugin answers them, and the journal is closed whole.
    @Test func effectsOffReducesOnly() async throws {
        let directory = try JournalTestDirectory()
        let registry = testRegistry()
        var parsed = try BusConfiguration.parse(configuration, file: "test.json", environment: [:], knownKinds: registry.kinds)
        parsed.bus.dataDirectory = directory.path
        let bus = try Bus(configuration: parsed, registry: registry, services: BusServices(), log: LogSink(minimumLevel: .error))
        let actions = [recorded(7, "ping/a"), recorded(8, "echo/pong", source: "echo", cause: 7)]
        let outcome = await ReplayFeed(actions: actions, pace: .asFastAsPossible).run(on: ContinuousClock()) { await bus.dispatchRecorded($0) }
        #expect(outcome.replayed == 2)
        await bus.closeWithoutRunning()
        var journaled: [BusAction] = []
        try JournalDirectory(dataDirectory: directory.path).forEachAction { journaled.append($0); return true }
        #expect(journaled.map(\.type) == ["ping/a", "echo/pong"])
        #expect(journaled.map(\.time) == actions.map(\.time))
        #expect(journaled.map(\.source) == ["control", "echo"])
        #expect(journaled.map(\.cause) == [nil, 1])
        #expect(bus.currentState["echo"]?["pongs"] == .integer(1))
    }

    /// With the plugins running, a plugin answers a replayed action: its action is new (stamped
    /// now, its own source) and caused by the replayed copy.
    @Test func effectsOnLetsPluginsReact() async throws {
        let bus = try makeBus(configuration)
        let running = Task { try await bus.run() }
        #expect(await bus.waitUntilReady())
        let pongs = bus.actions(matching: TypePattern("echo/pong")!)
        let outcome = await ReplayFeed(actions: [recorded(3, "ping/x")], pace: .asFastAsPossible).run(on: ContinuousClock()) {
            await bus.dispatchRecorded($0)
        }
        let replayedID = try #require(outcome.firstID)
        var iterator = pongs.makeAsyncIterator()
        let pong = try #require(await iterator.next())
        #expect(pong.cause == replayedID)
        #expect(pong.source == "echo")
        #expect(pong.time > Date(timeIntervalSince1970: 1_700_000_100), "stamped now, not at the recorded time")
        bus.stop()
        try await running.value
    }

    /// Two recordings that differ in one action: the comparison names that action, the payload
    /// path and the state path that differ; the same recording compares equal.
    @Test func comparisonFindsTheFirstDifference() throws {
        let directory = try JournalTestDirectory()
        let registry = testRegistry()
        let parsed = try BusConfiguration.parse(configuration, file: "test.json", environment: [:], knownKinds: registry.kinds)
        let model = try BusStateModel(configuration: parsed, registry: registry)
        let left = [recorded(1, "ping/a"), recorded(2, "echo/pong", source: "echo"), recorded(3, "ping/b")]
        var right = left
        right[1].type = "echo/other"
        for (name, actions) in [("a.jsonl", left), ("b.jsonl", right)] {
            var bytes: [UInt8] = []
            for action in actions { ActionLines.append(action, to: &bytes) }
            try directory.write(name, String(decoding: bytes, as: UTF8.self))
        }
        let a = try JournalRecording(path: directory.path + "/a.jsonl")
        let b = try JournalRecording(path: directory.path + "/b.jsonl")
        let same = try JournalComparison.compare(a, a, model: model)
        #expect(same.difference == nil)
        #expect(same.matchingPairs == 3)
        let differing = try JournalComparison.compare(a, b, model: model)
        let difference = try #require(differing.difference)
        #expect(difference.position == 2)
        #expect(difference.actionDifferences.map(\.path) == ["type"])
        #expect(difference.stateDifferences.map(\.path) == ["echo.pongs"])
        #expect(differing.description.contains("differ at action 2"))
        let pingsOnly = try JournalComparison.compare(a, b, pattern: TypePattern("ping/*")!, model: nil)
        #expect(pingsOnly.difference == nil)
    }
}
