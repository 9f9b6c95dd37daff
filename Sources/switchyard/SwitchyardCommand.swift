import FoundationEssentials
import Glibc
import SwitchyardBus
import SwitchyardIO

/// The `switchyard` command line: parses the arguments against ``CommandTable`` and calls the
/// library.
struct SwitchyardCommand {
    static let version = "0.1.0"
    static let defaultConfiguration = CommandTable.defaultConfiguration

    let arguments: [String]
    let signals: SignalListener

    func run() async -> ExitStatus {
        var words = CommandTable.normalized(arguments)
        if words.first == "help" {
            words.removeFirst()
            return Self.help(words)
        }
        let parsed: ParsedArguments
        do {
            switch try ArgumentParser(root: CommandTable.root).parse(words) {
            case .help(let path):
                return Self.printHelp(path)
            case .command(let command):
                parsed = command
            }
        } catch {
            return Self.usageError(error)
        }
        do {
            return try await run(parsed)
        } catch {
            return Self.usageError(error)
        }
    }

    private func run(_ parsed: ParsedArguments) async throws(UsageError) -> ExitStatus {
        switch parsed.path {
        case ["run"]:
            return try await RunCommand(parsed, signals: signals).run()
        case ["validate"]:
            return ValidateCommand(path: parsed[positional: "CONFIG"] ?? "").run()
        case ["plugins"]:
            return try PluginsCommand.run(parsed, registry: BuiltInPlugins.registry)
        case ["schema"]:
            Output.out(ConfigurationSchema.document(registry: BuiltInPlugins.registry).prettyPrinted())
            return .success
        case ["state"] where parsed.value("at") != nil, ["why"]:
            let command = try HistoryCommand(parsed)
            return await onThread { command.run() }
        case ["send"], ["state"], ["tail"], ["stats"]:
            let options = try ClientOptions(parsed)
            let command = parsed.path[0]
            let prepared: @Sendable () -> ExitStatus
            switch command {
            case "send": prepared = try ClientCommand.send(parsed, options)
            case "state": prepared = { ClientCommand.state(parsed, options) }
            case "tail":
                let tail = try TailCommand(parsed, options: options)
                prepared = { tail.run() }
            default: prepared = { ClientCommand.stats(parsed, options) }
            }
            // A client ends on SIGINT or SIGTERM; for tail that is the usual way to stop.
            signals.setHandler { signal in
                if signal != SIGHUP { exit(command == "tail" ? ExitStatus.success.rawValue : ExitStatus.failure.rawValue) }
            }
            return await onThread(prepared)
        case ["journal", "show"], ["journal", "verify"], ["journal", "compact"]:
            let options = try ClientOptions(parsed)
            let command = try JournalCommand(parsed, options: options)
            let work = LongWork(signals: signals, ending: command.interruptedEnding)
            if parsed.flag("follow") {
                signals.setHandler { signal in if signal != SIGHUP { exit(ExitStatus.success.rawValue) } }
            }
            return await onThread { command.run(work) }
        case ["journal", "export"], ["journal", "import"]:
            let command = try JournalTransferCommand(parsed, options: try ClientOptions(parsed))
            let work = LongWork(signals: signals, ending: command.interruptedEnding)
            return await onThread { command.run(work) }
        case ["journal", "diff"]:
            let command = try JournalDiffCommand(parsed)
            return await onThread { command.run() }
        case ["replay"]:
            return try await ReplayCommand(parsed, signals: signals).run()
        case ["inspect"]:
            return try await InspectCommand(parsed).run(signals: signals)
        case ["completions"]:
            guard let shell = CompletionShell(rawValue: parsed[positional: "SHELL"] ?? "") else {
                throw UsageError("unknown shell \"\(parsed[positional: "SHELL"] ?? "")\" (bash, zsh or fish)", path: parsed.path)
            }
            Output.out(CompletionScript(root: CommandTable.root).script(for: shell))
            return .success
        case ["version"]:
            Output.out("switchyard \(Self.version)")
            return .success
        default:
            throw UsageError("unknown command \"\(parsed.path.joined(separator: " "))\"")
        }
    }

    /// `switchyard help [COMMAND...] [--man] [--help]`: words are a command's path; `--man`
    /// prints the manual page, `--help` (or `-h`) the help of `help` itself.
    static func help(_ words: [String]) -> ExitStatus {
        if words.contains("--help") || words.contains("-h") { return printHelp(["help"]) }
        if words == ["--man"] {
            Output.out(ManPage(root: CommandTable.root, version: version).roff)
            return .success
        }
        if let option = words.first(where: ArgumentParser.isOption) {
            return usageError(UsageError("unknown option \(option)", path: ["help"]))
        }
        return printHelp(words)
    }

    /// Prints the help of the command at `path` on stdout; exit 2 when there is no such command.
    static func printHelp(_ path: [String]) -> ExitStatus {
        guard CommandTable.root.descendant(path) != nil else {
            return usageError(UsageError("no command \"\(path.joined(separator: " "))\" to help with", path: []))
        }
        Output.out(HelpFormatter(root: CommandTable.root).help(for: path))
        return .success
    }

    /// Prints the error, the command's usage line and a pointer to its `--help` on stderr; the
    /// exit status for a wrong command line.
    static func usageError(_ error: UsageError) -> ExitStatus {
        Output.error(error.report(root: CommandTable.root))
        return .usage
    }
}

/// Loading a configuration: for building its plugins, as `run`, `validate` and SIGHUP do it, or
/// for their state slices only.
enum ConfigurationLoader {
    static func load(_ path: String, registry: PluginRegistry) throws(ConfigurationError) -> BusConfiguration {
        try BusConfiguration.load(contentsOf: path, environment: ProcessInfo.processInfo.environment, registry: registry)
    }

    /// For commands that only reduce (`journal diff`, `replay --effects off`): the plugins'
    /// variables are needed only where their slices need them.
    static func loadForSlices(_ path: String, registry: PluginRegistry) throws(ConfigurationError) -> BusConfiguration {
        try BusConfiguration.loadForSlices(contentsOf: path, environment: ProcessInfo.processInfo.environment, registry: registry)
    }
}

/// `switchyard validate CONFIG`.
struct ValidateCommand {
    let path: String

    func run() -> ExitStatus {
        do {
            let configuration = try ConfigurationLoader.load(path, registry: BuiltInPlugins.registry)
            let plugins = configuration.plugins.map { "\($0.name) (\($0.kind))" }.joined(separator: ", ")
            Output.out(configuration.secrets.redact("\(path): valid: bus \"\(configuration.bus.name)\", \(configuration.plugins.count) plugin(s): \(plugins)"))
            return .success
        } catch {
            Output.error(error.description)
            return .invalidConfiguration
        }
    }
}
