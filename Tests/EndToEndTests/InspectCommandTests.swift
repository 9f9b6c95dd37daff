import Foundation
import SwitchyardTestSupport
import Testing

/// `switchyard inspect`: the dashboard's API over a stopped bus's recording, read-only, without
/// its plugins, and the data directory left exactly as it was.
@Suite(.serialized)
struct InspectCommandTests {
    /// Every file of `path` (recursively) with its size and modification time.
    private func listing(_ path: String) throws -> [String: String] {
        var files: [String: String] = [:]
        let manager = FileManager.default
        for name in try #require(manager.subpathsOfDirectory(atPath: path) as [String]?) {
            let attributes = try manager.attributesOfItem(atPath: path + "/" + name)
            files[name] = "\(attributes[.size] ?? 0) \(attributes[.modificationDate] ?? "")"
        }
        return files
    }

    @Test func servesARecordingReadOnly() async throws {
        let route = SwitchyardProcess.packageRoot.path + "/Config/routes/wellington-waterfront.gpx"
        let bus = try await RunningBus.start(bus: #"{"name": "demo", "journal": {"snapshotEvery": 5}}"#, plugins: """
            [{"name": "location", "kind": "location-emitter", "source": {"replay": "\(route)", "speed": 200}, "distanceFilter": 25}]
            """)
        let recorded = try await eventually(interval: .milliseconds(200)) {
            try await bus.client(["journal", "show", "location/changed"]).stdout.split(separator: "\n").count >= 6
        }
        #expect(recorded)
        #expect(await bus.stop() == 0)
        let changes = try await bus.client(["journal", "show", "location/changed"]).stdout.split(separator: "\n").map { object(String($0)) }
        let before = try listing(bus.dataPath)
        let final = try ReplayCommandTests.finalState(bus.dataPath)

        let port = try unusedLocalPort()
        let inspect = try SwitchyardProcess(["inspect", "data", "--config", bus.configPath, "--http", "127.0.0.1:\(port)"], directory: bus.directory.url)
        #expect(await inspect.wait(until: { $0.stderr.contains("inspect: serving data read-only at http://127.0.0.1:\(port)/") }), "\(inspect.stderr)")
        let change = try #require(changes.count > 2 ? changes[2] : nil)
        let id = try #require(change["id"] as? Int)
        let (now, then, stats, dispatch, page) = try await onThread {
            (try HTTPTestClient.request(port: port, "GET", "/api/state"),
             try HTTPTestClient.request(port: port, "GET", "/api/state?at=\(id)&path=location.location"),
             try HTTPTestClient.request(port: port, "GET", "/api/stats"),
             try HTTPTestClient.request(port: port, "POST", "/api/dispatch", headers: ["Content-Type": "application/json"], body: #"{"type":"a/b"}"#),
             try HTTPTestClient.request(port: port, "GET", "/"))
        }
        #expect(now.status == 200 && now.json["state"] as? NSDictionary == final)
        #expect(then.status == 200 && (then.json["state"] as? NSDictionary) == (change["payload"] as? NSDictionary))
        let statistics = try #require(stats.json["stats"] as? [String: Any])
        #expect((statistics["plugins"] as? [[String: Any]])?.map { $0["kind"] as? String } == ["location-emitter"])
        #expect(dispatch.status == 403 && (dispatch.json["error"] as? [String: Any])?["code"] as? String == "read-only")
        #expect(page.status == 200 && page.text.contains("timeline-range"))
        inspect.signal(SIGINT)
        #expect(await inspect.exitStatus() == 0)
        #expect(try listing(bus.dataPath) == before, "inspect wrote into the data directory")

        let refused = try SwitchyardProcess(["inspect", "data", "--config", bus.configPath, "--http", "0.0.0.0:\(port)"], directory: bus.directory.url)
        #expect(await refused.exitStatus() == 1)
        #expect(refused.stderr.contains("only on a loopback address"), "\(refused.stderr)")
        let unconfigured = try SwitchyardProcess(["inspect", "data"], directory: bus.directory.url)
        #expect(await unconfigured.exitStatus() == 2)
        #expect(unconfigured.stderr.contains("inspect needs --config FILE"), "\(unconfigured.stderr)")
    }
}
