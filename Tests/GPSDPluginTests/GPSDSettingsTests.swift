import Foundation
@testable import GPSDPlugin
import LocationEmitterPlugin
import LoggerPlugin
import SwitchyardBus
import SwitchyardBusTesting
import Testing

/// Validation of the gpsd plugin's settings, and the shipped configs that use it.
struct GPSDSettingsTests {
    private func plugin(_ settings: JSON) throws -> GPSDPlugin {
        try GPSDPlugin(name: "gps", settings: PluginSettings(settings.objectValue ?? [:], path: "plugins[0]"))
    }

    private func problems(_ settings: JSON) -> [String] {
        settingsProblems { try plugin(settings) }
    }

    /// Without settings: gpsd's defaults and the documented timings.
    @Test func defaults() throws {
        let configuration = try plugin([:]).configuration
        #expect(configuration == GPSDConfiguration())
        #expect(configuration.endpoint == .tcp(host: "127.0.0.1", port: 2947))
        #expect(configuration.satellitesInterval == .seconds(5))
        #expect(configuration.staleAfter == .seconds(10))
        #expect(configuration.reconnectDelay == .milliseconds(500))
        #expect(configuration.maximumReconnectDelay == .seconds(30))
    }

    /// Every setting is read.
    @Test func everySetting() throws {
        let configuration = try plugin([
            "host": "gps.local", "port": 12947, "device": "/dev/ttyACM0", "satellitesInterval": 0, "staleAfter": 3,
            "reconnectDelay": 0.25, "maxReconnectDelay": 8, "connectTimeout": 2, "maxLineLength": 4096,
        ]).configuration
        #expect(configuration.endpoint == .tcp(host: "gps.local", port: 12947))
        #expect(configuration.device == "/dev/ttyACM0")
        #expect(configuration.satellitesInterval == .zero)
        #expect(configuration.staleAfter == .seconds(3))
        #expect(configuration.reconnectDelay == .milliseconds(250))
        #expect(configuration.maximumReconnectDelay == .seconds(8))
        #expect(configuration.connectTimeout == .seconds(2))
        #expect(configuration.maximumLineLength == 4096)
        #expect(try plugin(["socket": "/run/gpsd.sock"]).configuration.endpoint == .unix(path: "/run/gpsd.sock"))
    }

    /// Each mistake is reported at its key path with the reason.
    @Test(arguments: [
        (["port": 0], "plugins[0].port: expected an integer 1-65535, got 0"),
        (["port": "2947"], "plugins[0].port: expected an integer 1-65535, got \"2947\""),
        (["host": ""], "plugins[0].host: expected a host name or address, got \"\""),
        (["socket": "/run/gpsd.sock", "port": 2947], "plugins[0].socket: give either \"socket\" or \"host\" and \"port\", not both"),
        (["socket": ""], "plugins[0].socket: expected a socket path, got \"\""),
        (["device": ""], "plugins[0].device: expected a device path, got \"\""),
        (["staleAfter": 0], "plugins[0].staleAfter: expected a number of seconds 0.05-86400, got 0"),
        (["reconnectDelay": 5, "maxReconnectDelay": 1], "plugins[0].maxReconnectDelay: must not be below reconnectDelay (5.0 seconds)"),
        (["maxLineLength": 100], "plugins[0].maxLineLength: expected an integer 1024-16777216, got 100"),
        (["stalleAfter": 3], "plugins[0].stalleAfter: unknown key \"stalleAfter\"; did you mean \"staleAfter\"?"),
    ] as [(JSON, String)])
    func problemsAreReported(settings: JSON, problem: String) {
        #expect(problems(settings).contains(problem), "\(problems(settings))")
    }

    /// The shipped configs validate with the built-in kinds.
    @Test(arguments: ["Config/gpsd.json", "Config/default.json"])
    func shippedConfigs(file: String) throws {
        // The shipped configs validate with the built-in kinds: the live gpsd one and the
        // offline demo, whose route is read now (relative to the configuration's directory,
        // whatever the working directory).
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        var registry = PluginRegistry()
        registry.register(GPSDPlugin.self)
        registry.register(LocationEmitterPlugin.self)
        registry.register(LoggerPlugin.self)
        let configuration = try BusConfiguration.load(
            contentsOf: root.appendingPathComponent(file).path, environment: [:], knownKinds: registry.kinds)
        let plugins = try Bus.makePlugins(configuration, registry: registry)
        #expect(plugins.count == configuration.plugins.count)
    }
}
