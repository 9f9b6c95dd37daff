import Foundation
import Switchyard

/// The `switchyard` command line: parses the arguments and calls the library.
struct SwitchyardCommand {
    static let version = "0.1.0"
    static let defaultConfiguration = "Config/default.json"

    static let usage = """
        usage: switchyard [run [CONFIG]]       run the bus (CONFIG defaults to \(defaultConfiguration));
                                               --accept-slice-changes restores a journal written
                                               with another plugin set
               switchyard validate CONFIG      check a configuration and exit (0 valid, 78 invalid)
               switchyard plugins              list the plugin kinds and their settings
               switchyard schema               print the JSON Schema of configuration files
               switchyard send TYPE [JSON]     dispatch an action to a running bus; prints its id
               switchyard state [PATH]         print the running bus's state (or the part at PATH)
               switchyard tail [PATTERN]       print actions as they happen (--json: one JSON object each)
               switchyard stats                print the running bus's counters (--json: as JSON)
               switchyard journal show|verify|compact
                                               print, check or trim the journal of a data directory
               switchyard --help | --version

        Clients find the bus with --bus NAME, --data-dir DIR, --config FILE (its data directory),
        --socket PATH (not journal), or SWITCHYARD_DATA; else the only bus in .switchyard/ or
        /var/lib/switchyard/. A bus keeps its data in .switchyard/<bus name> unless its
        configuration sets bus.dataDirectory ($STATE_DIRECTORY under systemd).

        Signals: SIGTERM/SIGINT stop the bus gracefully (exit 0; a second one exits at once);
        SIGHUP reloads the configuration: plugins are added, removed or restarted as it says, and
        an invalid configuration keeps the running one (the log says why).
        Exit codes: 0 success, 1 failure (an error reply, or no bus), 2 usage, 78 invalid configuration.
        """

    let arguments: [String]
    let signals: SignalListener

    func run() async -> ExitStatus {
        var arguments = arguments[...]
        let command = arguments.popFirst() ?? "run"
        switch command {
        case "run":
            let acceptsSliceChanges = arguments.contains("--accept-slice-changes")
            arguments.removeAll { $0 == "--accept-slice-changes" }
            guard arguments.count <= 1 else { return usageError("run takes at most one configuration file") }
            return await RunCommand(path: arguments.first ?? Self.defaultConfiguration, signals: signals,
                                    acceptsSliceChanges: acceptsSliceChanges).run()
        case "validate":
            guard arguments.count == 1, let path = arguments.first else { return usageError("validate takes one configuration file") }
            return ValidateCommand(path: path).run()
        case "plugins":
            guard arguments.isEmpty else { return usageError("plugins takes no arguments") }
            Output.out(PluginsCommand.listing(BuiltInPlugins.registry))
            return .success
        case "schema":
            guard arguments.isEmpty else { return usageError("schema takes no arguments") }
            Output.out(ConfigurationSchema.document(registry: BuiltInPlugins.registry).prettyPrinted())
            return .success
        case "send", "state", "tail", "stats":
            let options: ClientOptions
            do {
                options = try ClientOptions(arguments, allowed: ["--socket", "--config", "--bus", "--data-dir", "--json"])
            } catch {
                return usageError(error.message)
            }
            // A client ends on SIGINT or SIGTERM; for tail that is the usual way to stop.
            signals.setHandler { signal in
                if signal != SIGHUP { exit(command == "tail" ? ExitStatus.success.rawValue : ExitStatus.failure.rawValue) }
            }
            return await onThread {
                switch command {
                case "send": ClientCommand.send(options)
                case "state": ClientCommand.state(options)
                case "tail": ClientCommand.tail(options)
                default: ClientCommand.stats(options)
                }
            }
        case "journal":
            do {
                let options = try ClientOptions(arguments, allowed: ["--config", "--bus", "--data-dir"])
                return await onThread { JournalCommand.run(options) }
            } catch {
                return usageError(error.message)
            }
        case "--help", "-h", "help":
            Output.out(Self.usage)
            return .success
        case "--version", "version":
            Output.out("switchyard \(Self.version)")
            return .success
        default:
            if command.hasSuffix(".json"), arguments.isEmpty {
                return await RunCommand(path: command, signals: signals).run()
            }
            return usageError("unknown command \"\(command)\"")
        }
    }

    private func usageError(_ message: String) -> ExitStatus {
        Self.usageError(message)
    }

    /// Prints `message` and the usage on stderr; the exit status for a wrong command line.
    static func usageError(_ message: String) -> ExitStatus {
        Output.error("switchyard: \(message)\n\n\(usage)")
        return .usage
    }
}

/// Loading a configuration and building its plugins, as `run`, `validate` and SIGHUP do it.
enum ConfigurationLoader {
    static func load(_ path: String, registry: PluginRegistry) throws(ConfigurationError) -> BusConfiguration {
        try BusConfiguration.load(contentsOf: path, environment: ProcessInfo.processInfo.environment, registry: registry)
    }
}

/// `switchyard validate CONFIG`.
struct ValidateCommand {
    let path: String

    func run() -> ExitStatus {
        do {
            let configuration = try ConfigurationLoader.load(path, registry: BuiltInPlugins.registry)
            let plugins = configuration.plugins.map { "\($0.name) (\($0.kind))" }.joined(separator: ", ")
            Output.out("\(path): valid: bus \"\(configuration.bus.name)\", \(configuration.plugins.count) plugin(s): \(plugins)")
            return .success
        } catch {
            Output.error(error.description)
            return .invalidConfiguration
        }
    }
}

/// `switchyard plugins`.
enum PluginsCommand {
    static func listing(_ registry: PluginRegistry) -> String {
        var lines = [
            "Every plugin entry takes \"name\" (required, lower-case letters, digits and '-'), \"kind\" (required),",
            "and \"restart\": \"on-failure\" (default) | \"always\" | \"never\", or an object",
            "{\"policy\", \"maxRestarts\" (5), \"window\" (60 s), \"initialBackoff\" (0.1 s), \"maxBackoff\" (30 s)}.",
        ]
        for type in registry.pluginTypes {
            lines.append("")
            lines.append("\(type.kind): \(type.summary)")
            let keyWidth = type.settingDescriptions.map(\.key.count).max() ?? 0
            for setting in type.settingDescriptions {
                let key = setting.key.padding(toLength: keyWidth, withPad: " ", startingAt: 0)
                let defaultText = setting.defaultValue.map { "default \($0)" } ?? "required"
                lines.append("  \(key)  \(setting.type); \(defaultText). \(setting.summary)")
            }
        }
        return lines.joined(separator: "\n")
    }
}
