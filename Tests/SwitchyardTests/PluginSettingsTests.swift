import SwitchyardBus
import Testing

struct PluginSettingsTests {
    private func problems(_ values: [String: JSON], path: String = "plugins[2]", read: (PluginSettings) -> Void) -> [String] {
        let settings = PluginSettings(values, path: path)
        read(settings)
        do {
            try settings.finish()
            return []
        } catch {
            return error.problems.map(\.description)
        }
    }

    /// Valid values are returned as typed values and finish() does not throw.
    @Test func readsValidValues() throws {
        let settings = PluginSettings(
            [
                "host": "gps.local", "port": 2947, "ratio": 0.5, "enabled": false, "interval": 1.5,
                "format": "json", "actions": "gps/*", "payload": ["a": 1], "tags": ["x", "y"],
                "name": "gps", "kind": "gpsd", "restart": "always",
            ],
            path: "plugins[0]"
        )
        #expect(settings.string("host", default: "127.0.0.1") == "gps.local")
        #expect(settings.int("port", default: 1, range: 1...65535) == 2947)
        #expect(settings.double("ratio", default: 1, range: 0...1) == 0.5)
        #expect(settings.bool("enabled", default: true) == false)
        #expect(settings.seconds("interval", default: .seconds(1)) == .milliseconds(1500))
        #expect(settings.oneOf("format", ["text", "json"], default: "text") == "json")
        #expect(settings.typePattern("actions", default: .all).description == "gps/*")
        #expect(settings.json("payload") == ["a": 1])
        #expect(settings.strings("tags") == ["x", "y"])
        try settings.finish()
    }

    /// Absent keys give the defaults without a problem.
    @Test func absentKeysGiveDefaults() throws {
        let settings = PluginSettings([:], path: "plugins[0]")
        #expect(settings.string("host", default: "127.0.0.1") == "127.0.0.1")
        #expect(settings.int("port", default: 2947, range: 1...65535) == 2947)
        #expect(settings.int("count") == nil)
        #expect(settings.seconds("timeout", default: .seconds(5)) == .seconds(5))
        #expect(settings.object("request") == nil)
        #expect(settings.array("routes").isEmpty)
        #expect(settings.stringMap("headers").isEmpty)
        try settings.finish()
    }

    /// A value of the wrong type is a problem quoting the value in JSON form.
    @Test(arguments: [
        ("port", JSON.string("abc"), "plugins[2].port: expected an integer 1-65535, got \"abc\""),
        ("port", 70000, "plugins[2].port: expected an integer 1-65535, got 70000"),
        ("port", 29.5, "plugins[2].port: expected an integer 1-65535, got 29.5"),
        ("port", true, "plugins[2].port: expected an integer 1-65535, got true"),
        ("host", 5, "plugins[2].host: expected a string, got 5"),
        ("enabled", "yes", "plugins[2].enabled: expected true or false, got \"yes\""),
        ("ratio", 2, "plugins[2].ratio: expected a number 0-1, got 2"),
        ("ratio", nil, "plugins[2].ratio: expected a number 0-1, got null"),
        ("interval", -1, "plugins[2].interval: expected a number of seconds > 0, got -1"),
        ("interval", 0, "plugins[2].interval: expected a number of seconds > 0, got 0"),
        ("interval", "5s", "plugins[2].interval: expected a number of seconds > 0, got \"5s\""),
        ("interval", 1e12, "plugins[2].interval: expected a number of seconds at most 1000000000, got 1000000000000.0"),
        ("request", [1, 2], "plugins[2].request: expected an object, got [1,2]"),
        ("headers", "Bearer x", "plugins[2].headers: expected an object of strings, got \"Bearer x\""),
        ("routes", ["a": 1], "plugins[2].routes: expected an array of objects, got {\"a\":1}"),
    ] as [(String, JSON, String)])
    func wrongType(key: String, value: JSON, expected: String) {
        let found = problems([key: value]) { settings in
            _ = settings.int("port", default: 2947, range: 1...65535)
            _ = settings.string("host", default: "")
            _ = settings.bool("enabled", default: true)
            _ = settings.double("ratio", default: 0, range: 0...1)
            _ = settings.seconds("interval", default: .seconds(1))
            _ = settings.object("request")
            _ = settings.stringMap("headers")
            _ = settings.array("routes")
        }
        #expect(found == [expected])
    }

    /// A reader that records a problem returns its default.
    @Test func problemReturnsDefault() {
        let settings = PluginSettings(["port": "abc", "interval": -1], path: "plugins[0]")
        #expect(settings.int("port", default: 2947, range: 1...65535) == 2947)
        #expect(settings.seconds("interval", default: .seconds(3)) == .seconds(3))
        #expect(settings.problems.count == 2)
    }

    /// A missing required key is reported at the object's path; an empty string is a problem too.
    @Test func missingRequiredKey() {
        var returned: String?
        let missing = problems([:]) { returned = $0.requiredString("url") }
        #expect(missing == ["plugins[2]: missing required key \"url\""])
        #expect(returned == "")
        #expect(problems(["url": ""]) { _ = $0.requiredString("url") } == [
            "plugins[2].url: expected a non-empty string, got \"\""
        ])
    }

    /// An unknown key is reported with a did-you-mean when a read key is close, ignoring case.
    @Test(arguments: [
        ("intervall", "plugins[2].intervall: unknown key \"intervall\"; did you mean \"interval\"?"),
        ("Interval", "plugins[2].Interval: unknown key \"Interval\"; did you mean \"interval\"?"),
        ("intreval", "plugins[2].intreval: unknown key \"intreval\"; did you mean \"interval\"?"),
        ("colour", "plugins[2].colour: unknown key \"colour\"; known keys: \"count\", \"interval\", \"type\""),
    ])
    func unknownKey(key: String, expected: String) {
        let found = problems([key: 1]) { settings in
            _ = settings.seconds("interval", default: .seconds(1))
            _ = settings.int("count")
            _ = settings.string("type")
        }
        #expect(found == [expected])
    }

    /// The keys the bus reads itself are never unknown.
    @Test func reservedKeysAreNotUnknown() {
        #expect(problems(["name": "gps", "kind": "gpsd", "restart": "never"]) { _ in }.isEmpty)
    }

    /// An enumeration value outside the allowed ones lists them, with a did-you-mean.
    @Test func oneOfListsAllowedValues() {
        #expect(problems(["format": "jsn"]) { _ = $0.oneOf("format", ["text", "json"], default: "text") } == [
            "plugins[2].format: expected one of \"text\", \"json\", got \"jsn\"; did you mean \"json\"?"
        ])
        #expect(problems(["policy": 3]) { _ = $0.oneOf("policy", default: RestartPolicy.Mode.never) } == [
            "plugins[2].policy: expected one of \"always\", \"on-failure\", \"never\", got 3"
        ])
    }

    /// An invalid type pattern explains the three accepted forms.
    @Test(arguments: ["GPS/fix", "gps", "gps/*/x*", ""])
    func invalidTypePattern(text: String) {
        let found = problems(["actions": .string(text)]) { _ = $0.typePattern("actions", default: .all) }
        #expect(found.count == 1)
        #expect(found.first?.hasPrefix("plugins[2].actions: expected an action type pattern: \"*\"") == true)
        #expect(found.first?.contains("\"domain/*\"") == true)
        #expect(found.first?.contains("\"domain/event\"") == true)
    }

    /// Nested readers extend the path, and their unknown keys and problems roll up into one error.
    @Test func nestedObjectsAndArrays() {
        let values: [String: JSON] = [
            "request": ["url": 5, "method": "GET", "headers": ["Accept": "application/json", "X-Count": 3], "timout": 2],
            "routes": [["to": "a"], "oops", ["to": "b", "extra": true]],
        ]
        var headers: [String: String] = [:]
        var requestPath = ""
        var routePaths: [String] = []
        let found = problems(values) { settings in
            if let request = settings.object("request") {
                _ = request.requiredString("url")
                _ = request.oneOf("method", ["GET", "POST"], default: "GET")
                headers = request.stringMap("headers")
                _ = request.seconds("timeout", default: .seconds(10))
                requestPath = request.path
            }
            let routes = settings.array("routes")
            routePaths = routes.map(\.path)
            for route in routes { _ = route.string("to") }
        }
        #expect(headers == ["Accept": "application/json"])
        #expect(requestPath == "plugins[2].request")
        #expect(routePaths == ["plugins[2].routes[0]", "plugins[2].routes[2]"])
        #expect(found == [
            "plugins[2].request.url: expected a string, got 5",
            "plugins[2].request.headers.X-Count: expected a string, got 3",
            "plugins[2].routes[1]: expected an object, got \"oops\"",
            "plugins[2].request.timout: unknown key \"timout\"; did you mean \"timeout\"?",
            "plugins[2].routes[2].extra: unknown key \"extra\"; known keys: \"to\"",
        ])
    }

    /// A plugin-specific problem is recorded at its key and reported with the others.
    @Test func pluginSpecificProblem() {
        let found = problems(["min": 5, "max": 1]) { settings in
            let low = settings.int("min", default: 0)
            let high = settings.int("max", default: 10)
            if low > high { settings.problem("max", "must not be less than min") }
            settings.problem("", "needs a source")
        }
        #expect(found == ["plugins[2].max: must not be less than min", "plugins[2]: needs a source"])
    }

    /// Every problem is reported at once, unknown keys last, and a second finish adds nothing.
    @Test func everyProblemAtOnce() {
        let settings = PluginSettings(["port": "x", "host": 1, "prot": 1], path: "plugins[1]")
        _ = settings.int("port", default: 1, range: 1...65535)
        _ = settings.string("host", default: "")
        let error = #expect(throws: PluginSettingsError.self) { try settings.finish() }
        #expect(error?.problems.map(\.path) == ["plugins[1].port", "plugins[1].host", "plugins[1].prot"])
        #expect(throws: PluginSettingsError.self) { try settings.finish() }
        #expect(settings.problems.count == 3)
    }

    /// A value from the environment is named by its reference, never its value, and may spell a number.
    @Test func environmentValuesStayHidden() throws {
        let declaration = PluginDeclaration(
            name: "api",
            kind: "network-fetch",
            settings: ["token": "s3cr3t-value", "port": "2947", "retries": "many"],
            path: "plugins[0]",
            environmentTemplates: [
                "plugins[0].token": "${API_TOKEN}",
                "plugins[0].port": "${PORT:-80}",
                "plugins[0].retries": "${RETRIES}",
            ]
        )
        let settings = PluginSettings(declaration)
        #expect(settings.int("port", default: 1, range: 1...65535) == 2947)
        _ = settings.int("token", default: 0)
        _ = settings.int("retries", default: 0)
        let error = #expect(throws: PluginSettingsError.self) { try settings.finish() }
        let text = error?.description ?? ""
        #expect(!text.contains("s3cr3t") && !text.contains("many"))
        #expect(error?.problems.map(\.description) == [
            "plugins[0].token: expected an integer, got the expansion of \"${API_TOKEN}\"",
            "plugins[0].retries: expected an integer, got the expansion of \"${RETRIES}\"",
        ])
    }

    /// A long value is shortened in messages.
    @Test func longValuesAreShortened() {
        let found = problems(["host": .array(Array(repeating: 12345, count: 100))]) { _ = $0.string("host") }
        #expect(found.first?.hasSuffix("…") == true)
        #expect((found.first?.count ?? 0) < 120)
    }
}
