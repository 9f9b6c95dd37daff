import Foundation
import SwitchyardTestSupport
import Testing

/// `journal diff --config` and `replay --effects off` only reduce recorded actions: they need
/// the plugins' state slices, not the variables the plugins' runs take from the environment.
@Suite(.serialized)
struct ReducingConfigurationTests {
    /// Runs `switchyard ARGUMENTS` in `directory` with the test's environment plus `environment`.
    private func switchyard(_ arguments: [String], in directory: TemporaryDirectory,
                            environment: [String: String] = [:]) async throws -> (status: Int32, stdout: String, stderr: String) {
        let process = try SwitchyardProcess(arguments, directory: directory.url, environment: environment)
        let status = await process.exitStatus()
        return (status, process.stdout, process.stderr)
    }

    /// `Config/places.json` records a request that fails (nothing listens on port 9) with
    /// `PLACES_URL` set; without it, diff and a replay with effects off work, and a replay with
    /// effects on says which variable its plugins miss.
    @Test func reducingNeedsNoPluginVariables() async throws {
        try #require(ProcessInfo.processInfo.environment["PLACES_URL"] == nil, "the test needs PLACES_URL unset")
        let directory = try TemporaryDirectory()
        let places = try String(contentsOf: SwitchyardProcess.packageRoot.appendingPathComponent("Config/places.json"), encoding: .utf8)
        let config = try directory.write("places.json", places)
        let recording = ".switchyard/places"

        let bus = try SwitchyardProcess(["run", config], directory: directory.url, environment: ["PLACES_URL": "http://127.0.0.1:9/places"])
        #expect(await bus.wait { $0.stderr.contains("ready:") }, "\(bus.stderr)")
        let sent = try await switchyard(["send", "location/changed", #"{"latitude":52.52,"longitude":13.405}"#, "--data-dir", recording], in: directory)
        #expect(sent.status == 0, "\(sent.stderr)")
        let failed = try await eventually(interval: .milliseconds(200)) {
            try await switchyard(["journal", "show", "places/failed", "--data-dir", recording], in: directory).stdout.contains("places/failed")
        }
        #expect(failed, "\(bus.stderr)")
        bus.signal(SIGTERM)
        #expect(await bus.exitStatus() == 0, "\(bus.stderr)")

        let diff = try await switchyard(["journal", "diff", recording, recording, "--config", config], in: directory)
        #expect(diff.status == 0, "\(diff.stdout)\(diff.stderr)")
        #expect(diff.stdout.hasPrefix("same: "), "\(diff.stdout)")
        #expect(diff.stdout.contains("and the states after each"), "\(diff.stdout)")

        let replayed = try await switchyard(["replay", recording, "--config", config, "--as-fast-as-possible", "--data-dir", "replay-off"], in: directory)
        #expect(replayed.status == 0, "\(replayed.stderr)")
        // The replay ends in the recorded state: the request failed.
        let replayedPlaces = try ReplayCommandTests.finalState(directory.path("replay-off"))["places"] as? NSDictionary
        let recordedPlaces = try ReplayCommandTests.finalState(directory.path(recording))["places"] as? NSDictionary
        #expect(replayedPlaces == recordedPlaces)
        #expect(replayedPlaces?["status"] as? String == "failed", "\(String(describing: replayedPlaces))")

        let effects = try await switchyard(["replay", recording, "--config", config, "--effects", "on", "--data-dir", "replay-on"], in: directory)
        #expect(effects.status == 78, "\(effects.stderr)")
        #expect(effects.stderr.contains("plugins[0].request.url: environment variable PLACES_URL is not set"), "\(effects.stderr)")
        #expect(effects.stderr.contains("--effects on runs the plugins"), "\(effects.stderr)")
    }

    /// A variable a slice does depend on is still required: network-fetch's `emit` prefix
    /// names the slice's actions.
    @Test func aVariableTheSliceNeedsIsStillRequired() async throws {
        let directory = try TemporaryDirectory()
        let config = try directory.write("prefixed.json", """
            {"plugins": [{"name": "places", "kind": "network-fetch", "on": "location/changed", "emit": "${SWITCHYARD_TEST_UNSET_PREFIX}",
                          "request": {"url": "${SWITCHYARD_TEST_UNSET_URL}"}}]}
            """)
        let empty = try directory.write("empty.jsonl", "")
        let diff = try await switchyard(["journal", "diff", empty, empty, "--config", config], in: directory)
        #expect(diff.status == 78, "\(diff.stdout)\(diff.stderr)")
        #expect(diff.stderr.contains("plugins[0].emit: environment variable SWITCHYARD_TEST_UNSET_PREFIX is not set"), "\(diff.stderr)")
        #expect(!diff.stderr.contains("SWITCHYARD_TEST_UNSET_URL"), "\(diff.stderr)")
    }

    /// gpsd's and the location emitter's slices depend only on their names: a port or a
    /// filter taken from an unset variable does not stop a diff of their recordings.
    @Test func positionSlicesNeedNoEndpointVariables() async throws {
        let directory = try TemporaryDirectory()
        let config = try directory.write("tracker.json", """
            {"plugins": [{"name": "gps", "kind": "gpsd", "host": "127.0.0.1", "port": "${SWITCHYARD_TEST_UNSET_PORT}"},
                         {"name": "location", "kind": "location-emitter", "source": {"plugin": "gps"},
                          "distanceFilter": "${SWITCHYARD_TEST_UNSET_DISTANCE}"}]}
            """)
        let empty = try directory.write("empty.jsonl", "")
        let diff = try await switchyard(["journal", "diff", empty, empty, "--config", config], in: directory)
        #expect(diff.status == 0, "\(diff.stdout)\(diff.stderr)")
        #expect(diff.stdout.hasPrefix("same: "), "\(diff.stdout)")
        let validate = try await switchyard(["validate", config], in: directory)
        #expect(validate.status == 78, "a bus that runs them still needs the variables: \(validate.stderr)")
        #expect(validate.stderr.contains("SWITCHYARD_TEST_UNSET_PORT"), "\(validate.stderr)")
    }
}
