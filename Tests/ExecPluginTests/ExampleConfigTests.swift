import Foundation
import SwitchyardBus
import SwitchyardTestSupport
import SwitchyardBusTesting
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
        let bus = try TestBus(configuration: BusConfiguration(file: "example", plugins: [declaration]), registry: PluginRegistry(ExecPlugin.self),
                              clock: ContinuousClock(), logLevel: .info)
        #expect(await bus.start())
        for (latitude, longitude) in [(52.52003, 13.40495), (52.53012, 13.38488), (48.0, 2.0)] {
            await bus.dispatch("location/changed", ["latitude": .number(latitude), "longitude": .number(longitude)])
        }
        let zones = await bus.waitFor("geo/zone", count: 3)
        #expect(zones.map { $0.payload["zone"] } == ["home", "office", .null])
        #expect(zones.last?.payload["nearest"] == "office")
        let positions = bus.actions("location/changed").map(\.id)
        #expect(zones.map(\.cause) == positions)
        #expect(bus.logLines.contains("switchyard: info: geo: loaded 2 zone(s)"))
        try await bus.stop()
    }
}
