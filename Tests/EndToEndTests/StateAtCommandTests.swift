import Foundation
import SwitchyardTestSupport
import Testing

/// `switchyard state --at` and `switchyard why` with the real executable: the state at an
/// action is the state a replay to that action ends in, over the offline demo and over a
/// recorded gpsd session, read with the bus running and after it stopped.
@Suite(.serialized)
struct StateAtCommandTests {
    private func switchyard(_ arguments: [String], in directory: TemporaryDirectory) async throws -> (status: Int32, stdout: String, stderr: String) {
        let process = try SwitchyardProcess(arguments, directory: directory.url)
        let status = await process.exitStatus()
        return (status, process.stdout, process.stderr)
    }

    /// The ids of the journaled actions of `type` in the data directory of `bus`.
    private func ids(of type: String, in bus: RunningBus) async throws -> [Int] {
        let shown = try await switchyard(["journal", "show", type, "--data-dir", bus.dataPath], in: bus.directory)
        #expect(shown.status == 0, "\(shown.stderr)")
        return shown.stdout.split(separator: "\n").compactMap { object(String($0))["id"] as? Int }
    }

    /// `state --at ID` of the recording equals the final state of a replay of it through `--to ID`.
    private func expectStateAtEqualsReplay(_ bus: RunningBus, at ids: [Int]) async throws {
        for id in ids {
            let state = try await switchyard(["state", "--at", String(id), "--json", "--config", bus.configPath, "--data-dir", bus.dataPath],
                                             in: bus.directory)
            #expect(state.status == 0, "\(state.stderr)")
            #expect(state.stderr.contains("state after action \(id) ("), "\(state.stderr)")
            let replay = "replay-\(id)"
            let replayed = try await switchyard(["replay", bus.dataPath, "--config", bus.configPath, "--to", String(id),
                                                 "--as-fast-as-possible", "--data-dir", replay], in: bus.directory)
            #expect(replayed.status == 0, "\(replayed.stderr)")
            let expected = try ReplayCommandTests.finalState(bus.directory.url.appendingPathComponent(replay).path)
            #expect(try #require(JSONSerialization.jsonObject(with: Data(state.stdout.utf8)) as? NSDictionary) == expected, "state at \(id)")
        }
    }

    /// The offline demo (the shipped route through the location emitter): the state at a
    /// middle location change, while the bus runs and after it stopped, and `why` on the
    /// latitude names that change.
    @Test func offlineDemo() async throws {
        let route = SwitchyardProcess.packageRoot.path + "/Config/routes/wellington-waterfront.gpx"
        let bus = try await RunningBus.start(bus: #"{"name": "demo", "journal": {"snapshotEvery": 5}}"#, plugins: """
            [{"name": "location", "kind": "location-emitter", "source": {"replay": "\(route)", "speed": 200}, "distanceFilter": 25}]
            """)
        let recorded = try await eventually(interval: .milliseconds(200)) { try await ids(of: "location/changed", in: bus).count >= 8 }
        #expect(recorded)
        let changes = try await ids(of: "location/changed", in: bus)
        try await expectStateAtEqualsReplay(bus, at: [changes[2]])
        #expect(await bus.stop() == 0)
        try await expectStateAtEqualsReplay(bus, at: [changes[1], changes[6], changes.last ?? 0])

        let why = try await switchyard(["why", "location.location.latitude", "--at", String(changes[6] + 1), "--json",
                                        "--config", bus.configPath, "--data-dir", bus.dataPath], in: bus.directory)
        #expect(why.status == 0, "\(why.stderr)")
        let answer = object(why.stdout)
        let changedBy = try #require(answer["changedBy"] as? [String: Any])
        #expect(changedBy["type"] as? String == "location/changed")
        #expect(changedBy["id"] as? Int ?? 0 <= changes[6] + 1)
        #expect(answer["after"] as? Double == answer["value"] as? Double)
        let text = try await switchyard(["why", "location.location.latitude", "--config", bus.configPath, "--data-dir", bus.dataPath], in: bus.directory)
        #expect(text.status == 0 && text.stdout.contains("changed by action "), "\(text.stdout)\(text.stderr)")
    }

    /// A recorded gpsd session: the state at a fix and at a location change equals the replay's.
    @Test(.enabled(if: GPSDProcess.testsEnabled, "\(GPSDProcess.missingMessage)"))
    func gpsdCapture() async throws {
        let gpsd = try await GPSDProcess.gpsfakeWithDevice(capture: SwitchyardProcess.packageRoot.path + "/Tests/Fixtures/gpsd-logs/bu353s4.log",
                                                           cycle: 0.05, once: true)
        defer { gpsd.stop() }
        let bus = try await RunningBus.start(bus: #"{"name": "recorder", "journal": {"snapshotEvery": 4}}"#, plugins: """
            [{"name": "gps", "kind": "gpsd", "host": "127.0.0.1", "port": \(gpsd.port)},
             {"name": "location", "kind": "location-emitter", "source": {"plugin": "gps"}, "distanceFilter": 0}]
            """)
        try await bus.play(gpsd)
        let recorded = try await eventually(interval: .milliseconds(200)) { try await ids(of: "location/changed", in: bus).count >= 5 }
        #expect(recorded, "no fixes recorded; gpsd: \(gpsd.log)")
        #expect(await bus.stop() == 0)
        let fixes = try await ids(of: "gps/fix", in: bus)
        let changes = try await ids(of: "location/changed", in: bus)
        try await expectStateAtEqualsReplay(bus, at: [fixes[1], changes[3]])
    }

    /// Bad input: a clear message, the documented exit status.
    @Test func badInput() async throws {
        let bus = try await RunningBus.start()
        #expect(await bus.stop() == 0)
        let cases: [([String], Int32, String)] = [
            (["state", "--at", "soon", "--config", bus.configPath], 2, "--at: expected an action id"),
            (["state", "--at", "0", "--config", bus.configPath], 2, "action ids start at 1"),
            (["state", "--at", "1", "--data-dir", bus.dataPath], 2, "--at needs --config FILE"),
            (["state", "--at", "999999", "--config", bus.configPath], 1, "no action 999999: the journal ends at action"),
            (["state", "--at", "1999-01-01T00:00:00Z", "--config", bus.configPath], 1, "is before the journal's first action"),
            (["state", "--at", "1", "nothing.here", "--config", bus.configPath], 1, "the state had no value at \"nothing.here\""),
            (["why", "x", "--data-dir", bus.dataPath], 2, "why needs --config FILE"),
            (["why", "x", "--config", "missing.json"], 78, "missing.json"),
        ]
        for (arguments, status, message) in cases {
            let run = try await switchyard(arguments, in: bus.directory)
            #expect(run.status == status, "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains(message), "\(arguments): \(run.stderr)")
        }
    }
}
