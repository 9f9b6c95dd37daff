import FoundationEssentials
import SwitchyardBus

/// Runs a program as a plugin: a supervised child process that speaks newline-delimited JSON.
///
/// Each action matching `actions` is written to the child's stdin as one line (the whole
/// ``BusAction`` as JSON); each line the child writes to stdout is an action to dispatch
/// (`type` required, `payload` and `cause` optional), or `{"ready": true}` for the optional
/// handshake. Lines on its stderr go to the bus log under the plugin's name. A bad line
/// becomes `NAME/protocol-error` and the plugin carries on. The plugin also emits
/// `NAME/started` (`pid`), `NAME/exited` (`pid`, `code` or `signal`, `stoppedBy` when
/// stopped, and counters) and `NAME/overflow` when the child reads too slowly.
///
/// A child that exits with a non-zero code or a signal makes ``run(context:)`` throw
/// ``ExecError``, so the bus restarts it per the `restart` policy (with backoff); one that
/// exits with 0 ends the plugin (restarted only with `"restart": "always"`). Stopping closes
/// the child's stdin, sends SIGTERM to its process group after `stopTimeout`, then SIGKILL
/// after `stopTimeout` more, so keep twice `stopTimeout` below the bus's own `stopTimeout`.
public struct ExecPlugin: Plugin {
    /// `exec`.
    public static let kind = "exec"
    /// One line for `switchyard plugins`.
    public static let summary = "Runs a program as a plugin, speaking JSON lines on its stdin and stdout."
    /// Every setting with its type and default, for `switchyard plugins`.
    public static let settingDescriptions: [SettingDescription] = [
        SettingDescription("command", "path or name in PATH", "The program to run; a relative path resolves against cwd."),
        SettingDescription("args", "array of strings", default: "[]", "Arguments after the program's name."),
        SettingDescription("env", "object of strings", default: "{}", "Variables for the child, over the inherited ones; ${VAR} works."),
        SettingDescription("inheritEnv", "boolean", default: "true", "Whether the child starts from the bus's environment."),
        SettingDescription("cwd", "directory", default: "the bus's", "The directory the child starts in."),
        SettingDescription("actions", "type pattern", default: "none", "Actions written to the child's stdin, one JSON line each."),
        SettingDescription("handshake", "boolean", default: "false", "Hold the bus's readiness until the child writes {\"ready\": true}."),
        SettingDescription("readyTimeout", "number of seconds", default: "10", "How long the handshake may take before the bus fails to start."),
        SettingDescription("stopTimeout", "number of seconds", default: "3", "Grace after stdin closes before SIGTERM, and after SIGTERM before SIGKILL."),
        SettingDescription("queueSize", "integer 1-1000000", default: "256", "Lines held for a child that reads slowly."),
        SettingDescription("overflow", "\"drop-oldest\" | \"drop-newest\"", default: "\"drop-oldest\"", "Which line goes when the queue is full (counted)."),
        SettingDescription("maxLineLength", "integer 1024-67108864", default: "1048576", "Longest line accepted from the child, in bytes."),
    ]

    /// The plugin's settings.
    public let settings: ExecSettings
    let command: ChildCommand

    /// Reads and validates the settings; throws every problem at once.
    public init(name: String, settings: PluginSettings) throws {
        self.settings = ExecSettings(reading: settings)
        try settings.finish()
        command = self.settings.childCommand(busEnvironment: ProcessInfo.processInfo.environment)
    }

    /// Actions matching `actions`, buffered 1024 deep (oldest dropped) before the child's own
    /// queue; none without an `actions` setting.
    public var subscription: ActionSubscription? {
        settings.actions.map { ActionSubscription($0, bufferSize: 1024, overflow: .dropOldest) }
    }

    /// Signalled by the child's `{"ready": true}` within `readyTimeout` when `handshake` is
    /// set; immediate otherwise.
    public var readiness: PluginReadiness {
        settings.handshake ? .signalled(timeout: settings.readyTimeout) : .immediate
    }

    /// Starts the child and exchanges actions with it until it exits or the plugin stops.
    /// - Throws: ``ExecError`` when the child cannot be started or exits with a failure.
    public func run(context: PluginContext) async throws {
        let connection = try ChildConnection.start(command, limits: settings.limits)
        let session = ExecSession(context: context, connection: connection, settings: settings)
        context.log.info("started \(command.displayText) (pid \(connection.pid))")
        await context.dispatch("\(context.name)/started", payload: ["pid": .integer(Int64(connection.pid))])
        switch await session.exchange() {
        case .exited(let status):
            await session.reportExit(status, stop: nil)
            guard status.isSuccess else {
                throw ExecError.childFailed(command: command.displayText, status: status)
            }
        case .stopping:
            let outcome = await connection.stop(timeout: settings.stopTimeout, clock: context.clock) { event in
                await session.handle(event, delivery: .send)
            }
            await session.reportExit(outcome.status, stop: outcome)
        }
    }
}
