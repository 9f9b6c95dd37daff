import SwitchyardBus
import SwitchyardBusTesting
import Testing

@testable import ExecPlugin

/// Reading and validating an `exec` plugin's settings.
struct ExecSettingsTests {
    private func make(_ members: String) throws -> ExecPlugin {
        let values = try JSON(parsing: "{\(members)}").objectValue ?? [:]
        return try ExecPlugin(name: "ext", settings: PluginSettings(values, path: "plugins[0]"))
    }

    private func problems(_ members: String) -> [String] {
        settingsProblems { try make(members) }
    }

    /// Only `command` is required; everything else has its documented default.
    @Test func defaults() throws {
        let plugin = try make(#""command": "/usr/bin/python3""#)
        #expect(plugin.settings == ExecSettings(command: "/usr/bin/python3"))
        #expect(plugin.subscription == nil)
        #expect(plugin.readiness == .immediate)
        #expect(plugin.command.environment["PATH"] != nil)
    }

    /// Every setting is read, and the handshake makes readiness signalled.
    @Test func everySetting() throws {
        let plugin = try make("""
            "command": "python3", "args": ["-u", "x.py"], "env": {"A": "1"}, "inheritEnv": false, "cwd": "/tmp",
            "actions": "location/*", "handshake": true, "readyTimeout": 2, "stopTimeout": 0.5, "queueSize": 8,
            "overflow": "drop-newest", "maxLineLength": 4096
            """)
        #expect(plugin.settings == ExecSettings(
            command: "python3", arguments: ["-u", "x.py"], environment: ["A": "1"], inheritsEnvironment: false,
            workingDirectory: "/tmp", actions: TypePattern("location/*"), handshake: true, readyTimeout: .seconds(2),
            stopTimeout: .milliseconds(500), queueSize: 8, overflow: .dropNewest, maximumLineLength: 4096
        ))
        #expect(plugin.subscription == ActionSubscription(TypePattern("location/*")!, bufferSize: 1024, overflow: .dropOldest))
        #expect(plugin.readiness == .signalled(timeout: .seconds(2)))
        #expect(plugin.command == ChildCommand(executable: "python3", arguments: ["-u", "x.py"], environment: ["A": "1"], workingDirectory: "/tmp"))
    }

    /// Each bad setting is reported with its key path and a reason.
    @Test(arguments: [
        ("", #"plugins[0]: missing required key "command""#),
        (#""command": "/nonexistent/plugin""#, #"plugins[0].command: "/nonexistent/plugin" does not exist"#),
        (#""command": "no-such-program-anywhere""#, #"plugins[0].command: "no-such-program-anywhere" was not found in PATH"#),
        (#""command": "\#(Fixtures.path("echo.py"))""#, #"plugins[0].command: "\#(Fixtures.path("echo.py"))" is not an executable file"#),
        (#""command": "bin/no-such-tool", "cwd": "/usr""#, #"plugins[0].command: "bin/no-such-tool" does not exist"#),
        (#""command": "python3", "cwd": "/nonexistent""#, #"plugins[0].cwd: "/nonexistent" is not an existing directory"#),
        (#""command": "python3", "env": {"A=B": "x"}"#, #"plugins[0].env: "A=B" is not a valid variable name"#),
        (#""command": "python3", "env": {"A": 1}"#, "plugins[0].env.A: expected a string, got 1"),
        (#""command": "python3", "args": "-u""#, #"plugins[0].args: expected an array of strings, got "-u""#),
        (#""command": "python3", "queueSize": 0"#, "plugins[0].queueSize: expected an integer 1-1000000, got 0"),
        (#""command": "python3", "maxLineLength": 10"#, "plugins[0].maxLineLength: expected an integer 1024-67108864, got 10"),
        (#""command": "python3", "overflow": "drop-olders""#, #"did you mean "drop-oldest"?"#),
        (#""command": "python3", "handshake": "yes""#, #"plugins[0].handshake: expected true or false, got "yes""#),
        (#""command": "python3", "stopTimeout": 0"#, "plugins[0].stopTimeout: expected a number of seconds > 0, got 0"),
        (#""command": "python3", "actions": "Location""#, "plugins[0].actions: expected an action type pattern"),
        (#""command": "python3", "stoptimeout": 1"#, #"plugins[0].stoptimeout: unknown key "stoptimeout"; did you mean "stopTimeout"?"#),
    ])
    func reportsBadSetting(members: String, problem: String) {
        let found = problems(members)
        #expect(found.count == 1)
        #expect(found.first?.contains(problem) == true, "\(found)")
    }

    /// A relative command resolves against `cwd`.
    @Test func relativeCommandResolvesAgainstDirectory() {
        #expect(problems(#""command": "bin/python3", "cwd": "/usr""#) == [])
    }

    /// Every problem is reported at once.
    @Test func reportsEveryProblem() {
        let found = problems(#""command": "/nonexistent/plugin", "queueSize": -1, "colour": "blue""#)
        #expect(found.count == 3)
    }

    /// The child inherits the bus environment under its own variables, unless told not to.
    @Test func environmentMerging() {
        let inherited = ExecSettings(command: "x", environment: ["A": "own"])
            .childCommand(busEnvironment: ["A": "bus", "B": "bus"]).environment
        #expect(inherited == ["A": "own", "B": "bus"])
        let isolated = ExecSettings(command: "x", environment: ["A": "own"], inheritsEnvironment: false)
            .childCommand(busEnvironment: ["A": "bus", "B": "bus"]).environment
        #expect(isolated == ["A": "own"])
    }
}
