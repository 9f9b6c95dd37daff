import Foundation
import SwitchyardBus
import Testing

struct ConfigurationTests {
    private static let kinds = ["timer", "gpsd", "logger"]

    private func parse(_ text: String, environment: [String: String] = [:]) throws(ConfigurationError) -> BusConfiguration {
        try BusConfiguration.parse(text, file: "Config/x.json", environment: environment, knownKinds: Self.kinds)
    }

    /// The lines of the error `text` is rejected with; empty when it is accepted.
    private func problemLines(_ text: String, environment: [String: String] = [:]) -> [String] {
        do {
            _ = try parse(text, environment: environment)
            return []
        } catch {
            return error.description.split(separator: "\n").map(String.init)
        }
    }

    /// A complete file gives the bus settings and the plugins in file order, reserved keys split off.
    @Test func parsesCompleteFile() throws {
        let configuration = try parse("""
            {
              "bus": {"name": "tracker", "dataDirectory": "/var/lib/sy", "stopTimeout": 2.5,
                      "inboxCapacity": 128, "journal": {"fsync": "always", "snapshotEvery": 50}},
              "plugins": [
                {"name": "gps", "kind": "gpsd", "host": "127.0.0.1", "port": 2947},
                {"name": "tick", "kind": "timer", "interval": 1, "restart": "always"},
                {"name": "log", "kind": "logger", "restart": {"policy": "never", "maxRestarts": 2, "window": 10,
                 "initialBackoff": 0.5, "maxBackoff": 5}}
              ]
            }
            """)
        #expect(configuration.file == "Config/x.json")
        #expect(configuration.bus == BusSettings(
            name: "tracker",
            dataDirectory: "/var/lib/sy",
            journal: JournalSettings(fsync: .always, snapshotEvery: 50),
            stopTimeout: .milliseconds(2500),
            inboxCapacity: 128
        ))
        #expect(configuration.plugins.map(\.name) == ["gps", "tick", "log"])
        #expect(configuration.plugins.map(\.path) == ["plugins[0]", "plugins[1]", "plugins[2]"])
        #expect(configuration.plugins[0].settings == ["host": "127.0.0.1", "port": 2947])
        #expect(configuration.plugins[0].restart == RestartPolicy())
        #expect(configuration.plugins[1].restart == RestartPolicy(mode: .always))
        #expect(configuration.plugins[2].restart == RestartPolicy(
            mode: .never, maxRestarts: 2, window: .seconds(10), initialBackoff: .milliseconds(500), maxBackoff: .seconds(5)
        ))
    }

    /// Without a bus section every bus setting has its documented default.
    @Test func busDefaults() throws {
        let configuration = try parse(#"{"plugins": []}"#)
        #expect(configuration.bus.name == "switchyard")
        #expect(configuration.bus.dataDirectory == ".switchyard/switchyard")
        #expect(configuration.bus.journal.fsync == .interval)
        #expect(configuration.bus.journal.snapshotEvery == 10_000)
        #expect(configuration.bus.stopTimeout == .seconds(10))
        #expect(configuration.bus.inboxCapacity == 4096)
        #expect(configuration.plugins.isEmpty)
    }

    /// Malformed JSON is reported with the file, line and column.
    @Test(arguments: [
        ("{\n  \"plugins\": [\n    {\"name\": \"a\" \"kind\": \"timer\"}\n  ]\n}",
         "Config/x.json: line 3, column 18: expected ',' or '}' after an object member, found '\"'"),
        ("{\"plugins\": [],}", "Config/x.json: line 1, column 16: expected an object member after ',', found '}' (trailing commas are not allowed)"),
        ("{\"plugins\": [", "Config/x.json: line 1, column 14: expected a value, found the end of the input"),
        ("{\n\"plugins\": [{\"name\": \"gps\n}]}", "Config/x.json: line 2, column 26: unterminated string (a line break inside a string must be written as \\n)"),
        ("", "Config/x.json: line 1, column 1: expected a value, found the end of the input"),
    ])
    func badJSON(text: String, expected: String) {
        #expect(problemLines(text) == [expected])
    }

    /// The top level must be an object holding a plugins array.
    @Test(arguments: [
        ("[]", "Config/x.json: expected an object with a \"plugins\" array at the top level, got an array"),
        ("{}", "Config/x.json: missing required key \"plugins\" (an array of plugin objects)"),
        (#"{"plugins": {"name": "gps"}}"#, "Config/x.json: plugins: expected an array of plugin objects, got {\"name\":\"gps\"}"),
        (#"{"plugins": ["gps"]}"#, "Config/x.json: plugins[0]: expected a plugin object with \"name\" and \"kind\", got \"gps\""),
    ])
    func wrongStructure(text: String, expected: String) {
        #expect(problemLines(text) == [expected])
    }

    /// Each plugin needs a valid name and a kind.
    @Test(arguments: [
        (#"{"kind": "timer"}"#, "Config/x.json: plugins[0]: missing required key \"name\""),
        (#"{"name": "t"}"#, "Config/x.json: plugins[0]: missing required key \"kind\""),
        (#"{"name": 7, "kind": "timer"}"#, "Config/x.json: plugins[0].name: expected a string, got 7"),
        (#"{"name": "GPS", "kind": "timer"}"#,
         "Config/x.json: plugins[0].name: expected a name of lower-case letters, digits and '-' starting with a letter, at most 64 characters, got \"GPS\""),
        (#"{"name": "1st", "kind": "timer"}"#,
         "Config/x.json: plugins[0].name: expected a name of lower-case letters, digits and '-' starting with a letter, at most 64 characters, got \"1st\""),
        (#"{"name": "t", "kind": ["timer"]}"#, "Config/x.json: plugins[0].kind: expected a string, got [\"timer\"]"),
    ])
    func pluginNameAndKind(entry: String, expected: String) {
        #expect(problemLines(#"{"plugins": [\#(entry)]}"#) == [expected])
    }

    /// A name of 64 characters is accepted, 65 are not.
    @Test func nameLengthLimit() {
        let longest = "a" + String(repeating: "b", count: 63)
        #expect(problemLines(#"{"plugins": [{"name": "\#(longest)", "kind": "timer"}]}"#).isEmpty)
        #expect(problemLines(#"{"plugins": [{"name": "\#(longest)c", "kind": "timer"}]}"#).count == 1)
    }

    /// A name used twice is reported where it is reused, naming the first use.
    @Test func duplicateNames() {
        let text = #"{"plugins": [{"name": "gps", "kind": "gpsd"}, {"name": "log", "kind": "logger"}, {"name": "gps", "kind": "timer"}]}"#
        #expect(problemLines(text) == [
            "Config/x.json: plugins[2].name: duplicate plugin name \"gps\" (already used by plugins[0])"
        ])
    }

    /// An unknown kind lists the known kinds, with a did-you-mean when one is close.
    @Test(arguments: [
        ("gpsdd", "Config/x.json: plugins[0].kind: unknown kind \"gpsdd\"; did you mean \"gpsd\"? known kinds: gpsd, logger, timer"),
        ("Logger", "Config/x.json: plugins[0].kind: unknown kind \"Logger\"; did you mean \"logger\"? known kinds: gpsd, logger, timer"),
        ("network-fetch", "Config/x.json: plugins[0].kind: unknown kind \"network-fetch\"; known kinds: gpsd, logger, timer"),
    ])
    func unknownKind(kind: String, expected: String) {
        #expect(problemLines(#"{"plugins": [{"name": "p", "kind": "\#(kind)"}]}"#) == [expected])
    }

    /// With no kinds registered the message says so.
    @Test func noKindsRegistered() {
        let lines: [String]
        do {
            _ = try BusConfiguration.parse(#"{"plugins": [{"name": "p", "kind": "timer"}]}"#, file: "c.json", environment: [:], knownKinds: [])
            lines = []
        } catch {
            lines = error.problems.map(\.description)
        }
        #expect(lines == ["plugins[0].kind: unknown kind \"timer\"; no plugin kinds are registered"])
    }

    /// Invalid restart policies are reported at their key paths.
    @Test(arguments: [
        (#""sometimes""#, "plugins[0].restart: expected one of \"always\", \"on-failure\", \"never\", got \"sometimes\""),
        (#""on_failure""#, "plugins[0].restart: expected one of \"always\", \"on-failure\", \"never\", got \"on_failure\"; did you mean \"on-failure\"?"),
        ("3", "plugins[0].restart: expected one of \"always\", \"on-failure\", \"never\", or an object with \"policy\", \"maxRestarts\", \"window\", \"initialBackoff\" and \"maxBackoff\", got 3"),
        (#"{"maxRestarts": -1}"#, "plugins[0].restart.maxRestarts: expected an integer 0-1000000, got -1"),
        (#"{"window": 0}"#, "plugins[0].restart.window: expected a number of seconds > 0, got 0"),
        (#"{"initialBackoff": 10, "maxBackoff": 1}"#, "plugins[0].restart.maxBackoff: must not be shorter than initialBackoff"),
        (#"{"polcy": "always"}"#, "plugins[0].restart.polcy: unknown key \"polcy\"; did you mean \"policy\"?"),
    ])
    func invalidRestart(restart: String, expected: String) {
        #expect(problemLines(#"{"plugins": [{"name": "p", "kind": "timer", "restart": \#(restart)}]}"#) == ["Config/x.json: " + expected])
    }

    /// Invalid bus settings and unknown keys in the bus section are problems with did-you-mean.
    @Test(arguments: [
        (#"{"datadirectory": "/x"}"#, "bus.datadirectory: unknown key \"datadirectory\"; did you mean \"dataDirectory\"?"),
        (#"{"journal": {"fsync": "sometimes"}}"#, "bus.journal.fsync: expected one of \"always\", \"interval\", \"never\", got \"sometimes\""),
        (#"{"journal": {"snapshotEvery": 0}}"#, "bus.journal.snapshotEvery: expected an integer >= 1, got 0"),
        (#"{"journal": {"fsynk": "always"}}"#, "bus.journal.fsynk: unknown key \"fsynk\"; did you mean \"fsync\"?"),
        (#"{"stopTimeout": "10s"}"#, "bus.stopTimeout: expected a number of seconds > 0, got \"10s\""),
        (#"{"inboxCapacity": 0}"#, "bus.inboxCapacity: expected an integer 1-10000000, got 0"),
        (#"{"name": ""}"#, "bus.name: expected a non-empty string, got \"\""),
        (#"[1]"#, "bus: expected an object, got [1]"),
    ])
    func invalidBusSettings(bus: String, expected: String) {
        #expect(problemLines(#"{"bus": \#(bus), "plugins": []}"#) == ["Config/x.json: " + expected])
    }

    /// An unknown top-level key gets a did-you-mean.
    @Test func unknownTopLevelKey() {
        #expect(problemLines(#"{"plugin": []}"#) == [
            "Config/x.json: missing required key \"plugins\" (an array of plugin objects)",
            "Config/x.json: plugin: unknown key \"plugin\"; did you mean \"plugins\"?",
        ])
    }

    /// Plugin-specific keys are kept for the plugin and not judged here.
    @Test func pluginKeysAreNotValidated() throws {
        let configuration = try parse(#"{"plugins": [{"name": "t", "kind": "timer", "intervall": "x", "nested": {"a": [1]}}]}"#)
        #expect(configuration.plugins[0].settings == ["intervall": "x", "nested": ["a": [1]]])
    }

    /// Every structural problem in a file is reported in one error, in file order.
    @Test func severalProblemsAtOnce() {
        let text = """
            {
              "bus": {"journal": {"fsync": "often"}, "stopTimout": 3},
              "plugins": [
                {"name": "gps", "kind": "gpsdd"},
                {"kind": "timer", "restart": "sometimes"},
                {"name": "gps", "kind": "logger", "token": "${TOKEN}"},
                42
              ]
            }
            """
        #expect(problemLines(text) == [
            "Config/x.json: bus.journal.fsync: expected one of \"always\", \"interval\", \"never\", got \"often\"",
            "Config/x.json: bus.stopTimout: unknown key \"stopTimout\"; did you mean \"stopTimeout\"?",
            "Config/x.json: plugins[0].kind: unknown kind \"gpsdd\"; did you mean \"gpsd\"? known kinds: gpsd, logger, timer",
            "Config/x.json: plugins[1]: missing required key \"name\"",
            "Config/x.json: plugins[1].restart: expected one of \"always\", \"on-failure\", \"never\", got \"sometimes\"",
            "Config/x.json: plugins[2].name: duplicate plugin name \"gps\" (already used by plugins[0])",
            "Config/x.json: plugins[2].token: environment variable TOKEN is not set",
            "Config/x.json: plugins[3]: expected a plugin object with \"name\" and \"kind\", got 42",
        ])
    }

    /// Problems can be appended to an error, as the bus does with its plugins' problems.
    @Test func appendingProblems() {
        var error = ConfigurationError(file: "Config/x.json")
        #expect(error.isEmpty)
        error.append(ConfigurationProblem(path: "plugins[0].port", message: "expected an integer 1-65535, got \"abc\""))
        error.append(PluginSettingsError(problems: [ConfigurationProblem(path: "plugins[1]", message: "missing required key \"url\"")]))
        #expect(error.description == """
            Config/x.json: plugins[0].port: expected an integer 1-65535, got "abc"
            Config/x.json: plugins[1]: missing required key "url"
            """)
    }

    /// A file is read from disk; a missing file or a directory is a configuration error.
    @Test func loadsFromDisk() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("set.json").path
        try Data(#"{"plugins": [{"name": "tick", "kind": "timer", "interval": "${TICK:-1}"}]}"#.utf8).write(to: URL(fileURLWithPath: file))

        let configuration = try BusConfiguration.load(contentsOf: file, environment: [:], knownKinds: Self.kinds)
        #expect(configuration.file == file)
        #expect(configuration.plugins.first?.settings["interval"] == "1")

        let missing = #expect(throws: ConfigurationError.self) {
            try BusConfiguration.load(contentsOf: directory.path + "/absent.json", environment: [:], knownKinds: Self.kinds)
        }
        #expect(missing?.description == "\(directory.path)/absent.json: cannot read the file: No such file or directory")
        let folder = #expect(throws: ConfigurationError.self) {
            try BusConfiguration.load(contentsOf: directory.path, environment: [:], knownKinds: Self.kinds)
        }
        #expect(folder?.description == "\(directory.path): cannot read the file: it is a directory, not a regular file")
    }

    /// Bytes that are not UTF-8 in a file are a parse error with a position.
    @Test func loadRejectsInvalidUTF8() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-\(UUID().uuidString).json").path
        try Data([0x7B, 0x0A, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D]).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let error = #expect(throws: ConfigurationError.self) {
            try BusConfiguration.load(contentsOf: file, environment: [:], knownKinds: Self.kinds)
        }
        #expect(error?.description == "\(file): line 2, column 2: invalid UTF-8 byte 0xFF")
    }
}
