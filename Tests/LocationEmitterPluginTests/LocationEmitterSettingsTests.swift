@testable import LocationEmitterPlugin
import SwitchyardBus
import SwitchyardBusTesting
import Testing

/// Validation of the location-emitter's settings: every problem reported with its key path.
struct LocationEmitterSettingsTests {
    private func problems(_ settings: JSON) -> [String] {
        settingsProblems { try LocationEmitterPlugin(name: "location", settings: PluginSettings(settings.objectValue ?? [:], path: "plugins[0]")) }
    }

    /// Good settings of each source form are accepted.
    @Test(arguments: [
        ["source": ["plugin": "gps"], "minMode": 3, "maxHorizontalError": 25, "distanceFilter": 10, "minInterval": 0.5],
        ["source": ["static": ["latitude": -90, "longitude": 180, "horizontalAccuracy": 5]]],
        ["source": ["replay": .string(Fixtures.demoRoute), "speed": 10, "loop": true]],
    ] as [JSON])
    func validSettings(settings: JSON) {
        #expect(problems(settings) == [])
    }

    /// Each mistake is reported at its key path with the reason.
    @Test(arguments: [
        ([:], "plugins[0]: missing required key \"source\""),
        (["source": "gps"], "plugins[0].source: expected an object, got \"gps\""),
        (["source": [:]], "plugins[0].source: expected exactly one of \"plugin\", \"static\" or \"replay\""),
        (["source": ["plugin": "gps", "static": [:]]],
         "plugins[0].source: expected exactly one of \"plugin\", \"static\" or \"replay\", got plugin and static"),
        (["source": ["plugin": "GPS"]],
         "plugins[0].source.plugin: expected the name of a plugin (lower-case letters, digits, '-', '_', '.'), got \"GPS\""),
        (["source": ["plugin": "location"]], "plugins[0].source.plugin: a location emitter cannot take fixes from itself"),
        (["source": ["plugin": "gps", "speed": 2]], "plugins[0].source.speed: only a \"replay\" source takes \"speed\""),
        (["source": ["static": ["latitude": 91, "longitude": 0]]],
         "plugins[0].source.static.latitude: expected a number from -90 to 90, got 91"),
        (["source": ["static": ["longitude": 0]]], "plugins[0].source.static: missing required key \"latitude\""),
        (["source": ["replay": "/nonexistent/route.gpx"]],
         "plugins[0].source.replay: cannot read /nonexistent/route.gpx: No such file or directory"),
        (["source": ["replay": "/tmp"]], "plugins[0].source.replay: cannot read /tmp: it is a directory"),
        (["source": ["replay": .string(Fixtures.demoRoute), "speed": 0]],
         "plugins[0].source.speed: expected a number 0.001-1000000, got 0"),
        (["source": ["plugin": "gps"], "minMode": 1], "plugins[0].minMode: expected an integer 2-3, got 1"),
        (["source": ["plugin": "gps"], "distanceFilter": -1], "plugins[0].distanceFilter: expected a number 0-20000000, got -1"),
        (["source": ["plugin": "gps"], "minInterval": "1s"], "plugins[0].minInterval: expected a number of seconds 0-86400, got \"1s\""),
        (["source": ["plugin": "gps"], "distancefilter": 5],
         "plugins[0].distancefilter: unknown key \"distancefilter\"; did you mean \"distanceFilter\"?"),
    ] as [(JSON, String)])
    func problemsAreReported(settings: JSON, problem: String) {
        #expect(problems(settings).contains(problem), "\(problems(settings))")
    }

    /// Only a plugin source subscribes, to that plugin's actions.
    @Test func subscription() throws {
        let plugin = try LocationEmitterPlugin(name: "location", settings: PluginSettings(["source": ["plugin": "gps"]], path: "p"))
        #expect(plugin.subscription?.pattern == TypePattern("gps/*"))
        let fixed = try LocationEmitterPlugin(
            name: "location", settings: PluginSettings(["source": ["static": ["latitude": 1, "longitude": 2]]], path: "p"))
        #expect(fixed.subscription == nil)
    }
}
