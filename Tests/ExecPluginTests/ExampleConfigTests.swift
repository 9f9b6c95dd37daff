import Foundation
import Switchyard
import SwitchyardTestSupport
import Testing

@testable import ExecPlugin

/// `Config/exec-example.json` and its geo-zone plugin script.
@Suite(Fixtures.requirement, .scaledTimeLimit(minutes: 1))
struct ExampleConfigTests {
    private static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .path

    private func loadExample() throws -> BusConfiguration {
        try BusConfiguration.load(
            contentsOf: Self.repositoryRoot + "/Config/exec-example.json",
            environment: [:],
            knownKinds: ["exec", "logger", "timer"]
        )
    }

    /// The example is a valid configuration whose exec entry validates.
    @Test func exampleIsValid() throws {
        let configuration = try loadExample()
        let declaration = try #require(configuration.plugins.first { $0.kind == "exec" })
        var settings = declaration.settings
        settings["cwd"] = .string(Self.repositoryRoot)
        let plugin = try ExecPlugin(name: declaration.name, settings: PluginSettings(settings, path: declaration.path))
        #expect(plugin.settings.handshake)
        #expect(plugin.settings.actions == TypePattern("location/changed"))
        #expect(plugin.settings.environment["GEO_ZONES"]?.hasPrefix("home:") == true)
    }

    /// The geo-zone plugin turns positions into the zone they are in, caused by the position.
    @Test func enrichesLocationIntoZones() async throws {
        let example = try loadExample()
        var declaration = try #require(example.plugins.first { $0.kind == "exec" })
        declaration.settings["cwd"] = .string(Self.repositoryRoot)
        // The shipped 5 s suits a user's bus; a test machine running the whole suite can take
        // longer to start Python, so the test waits for the handshake, not for a speed.
        declaration.settings["readyTimeout"] = .number(120)
        var registry = PluginRegistry()
        registry.register(ExecPlugin.self)
        let log = LogLines()
        let bus = try Bus(configuration: BusConfiguration(file: "example", plugins: [declaration]), registry: registry, log: log.sink)
        let recorder = ActionRecorder.start(bus.actions())
        let running = Task { try await bus.run() }
        #expect(await bus.waitUntilReady())
        for (latitude, longitude) in [(52.52003, 13.40495), (52.53012, 13.38488), (48.0, 2.0)] {
            await bus.dispatch(BusAction(type: "location/changed", payload: ["latitude": .number(latitude), "longitude": .number(longitude)], source: "test"))
        }
        let seen = await recorder.wait(for: "geo/zone", count: 3)
        let zones = seen.filter { $0.type == "geo/zone" }
        #expect(zones.map { $0.payload["zone"] } == ["home", "office", .null])
        #expect(zones.last?.payload["nearest"] == "office")
        let positions = seen.filter { $0.type == "location/changed" }.map(\.id)
        #expect(zones.map(\.cause) == positions)
        #expect(log.all.contains("switchyard: info: geo: loaded 2 zone(s)"))
        bus.stop()
        try await running.value
    }
}
