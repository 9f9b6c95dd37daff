import SwitchyardBus
import Testing

struct EnvironmentTests {
    private static let environment = ["HOST": "gps.local", "PORT": "2947", "EMPTY": "", "TOKEN": "s3cr3t"]

    /// References expand to values or defaults; `$$` is a literal `$`; a lone `$` stays.
    @Test(arguments: [
        ("plain", "plain"),
        ("${HOST}", "gps.local"),
        ("tcp://${HOST}:${PORT}/", "tcp://gps.local:2947/"),
        ("${MISSING:-fallback}", "fallback"),
        ("${HOST:-fallback}", "gps.local"),
        ("${EMPTY:-fallback}", "fallback"),
        ("[${EMPTY}]", "[]"),
        ("${MISSING:-}", ""),
        ("${MISSING:-a:-b}", "a:-b"),
        ("$$", "$"),
        ("$${HOST}", "${HOST}"),
        ("price: $5 and $", "price: $5 and $"),
        ("$$${HOST}", "$gps.local"),
        ("$$$${HOST}", "$${HOST}"),
        ("ünï ${HOST} cødé", "ünï gps.local cødé"),
    ])
    func expandsReferences(text: String, expected: String) {
        var problems: [String] = []
        #expect(EnvironmentExpander(environment: Self.environment).expand(text, problems: &problems) == expected)
        #expect(problems.isEmpty)
    }

    /// Unset variables and malformed references are problems that never contain a value.
    @Test(arguments: [
        ("${API_TOKEN}", ["environment variable API_TOKEN is not set"]),
        ("${A}-${B}", ["environment variable A is not set", "environment variable B is not set"]),
        ("${TOKEN", ["unterminated \"${\" (write \"$$\" for a literal \"$\")"]),
        ("${}", ["invalid environment reference \"${}\"; write ${NAME}, ${NAME:-default} or ${secret:NAME}"]),
        ("${1X}", ["invalid environment reference \"${1X}\"; write ${NAME}, ${NAME:-default} or ${secret:NAME}"]),
        ("${TOKEN-x}", ["invalid environment reference \"${TOKEN-x}\"; write ${NAME}, ${NAME:-default} or ${secret:NAME}"]),
    ])
    func reportsProblems(text: String, expected: [String]) {
        var problems: [String] = []
        _ = EnvironmentExpander(environment: Self.environment).expand(text, problems: &problems)
        #expect(problems == expected)
        #expect(!problems.joined().contains("s3cr3t"))
    }

    /// An unset variable deep in a plugin entry is reported at its key path.
    @Test func unsetVariableInConfiguration() {
        let text = """
            {"plugins": [
              {"name": "log", "kind": "logger"},
              {"name": "places", "kind": "fetch", "request": {"headers": {"Authorization": "Bearer ${API_TOKEN}"}}}
            ]}
            """
        let error = #expect(throws: ConfigurationError.self) {
            try BusConfiguration.parse(text, file: "Config/x.json", environment: [:], knownKinds: ["logger", "fetch"])
        }
        #expect(error?.description == "Config/x.json: plugins[1].request.headers.Authorization: environment variable API_TOKEN is not set")
    }

    /// Expanded values reach the plugin's settings, the bus section and the reserved keys.
    @Test func expandsEverywhere() throws {
        let text = """
            {"bus": {"name": "${BUS:-tracker}", "inboxCapacity": "${CAPACITY:-64}"},
             "plugins": [{"name": "${NAME}", "kind": "gpsd", "host": "${HOST}", "list": ["${PORT}", 1],
                          "restart": "${RESTART:-never}"}]}
            """
        let configuration = try BusConfiguration.parse(
            text, file: "c.json", environment: ["NAME": "gps", "HOST": "gps.local", "PORT": "2947"], knownKinds: ["gpsd"]
        )
        #expect(configuration.bus.name == "tracker")
        #expect(configuration.bus.inboxCapacity == 64)
        #expect(configuration.plugins[0].name == "gps")
        #expect(configuration.plugins[0].restart.mode == .never)
        #expect(configuration.plugins[0].settings == ["host": "gps.local", "list": ["2947", 1]])
        #expect(configuration.plugins[0].environmentTemplates == ["plugins[0].host": "${HOST}", "plugins[0].list[0]": "${PORT}"])
    }

    /// A value from the environment that is rejected is shown by its reference, never by its value.
    @Test func valuesNeverReachMessages() {
        let text = """
            {"bus": {"inboxCapacity": "${CAPACITY}"},
             "plugins": [{"name": "${NAME}", "kind": "${KIND}", "restart": "${RESTART}"},
                         {"name": "${OTHER}", "kind": "timer"}]}
            """
        let environment = ["CAPACITY": "secret-capacity", "NAME": "Secret-Name", "KIND": "secretkind",
                           "RESTART": "secret-restart", "OTHER": "secret-other"]
        let error = #expect(throws: ConfigurationError.self) {
            try BusConfiguration.parse(text, file: "c.json", environment: environment, knownKinds: ["timer", "gpsd"])
        }
        let description = error?.description ?? "secret"
        #expect(!description.contains("secret") && !description.contains("Secret"))
        #expect(error?.problems.map(\.path) == ["bus.inboxCapacity", "plugins[0].name", "plugins[0].kind", "plugins[0].restart"])
        #expect(error?.problems.first?.message == "expected an integer 1-10000000, got the expansion of \"${CAPACITY}\"")
    }

    /// A duplicate name that came from the environment names the reference, not the value.
    @Test func duplicateNameFromEnvironment() {
        let text = #"{"plugins": [{"name": "gps", "kind": "timer"}, {"name": "${SECOND}", "kind": "timer"}]}"#
        let error = #expect(throws: ConfigurationError.self) {
            try BusConfiguration.parse(text, file: "c.json", environment: ["SECOND": "gps"], knownKinds: ["timer"])
        }
        #expect(error?.problems.map(\.description) == [
            "plugins[1].name: duplicate plugin name the expansion of \"${SECOND}\" (already used by plugins[0])"
        ])
    }
}
