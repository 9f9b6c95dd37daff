import FoundationEssentials
import SwitchyardBus

/// `switchyard state --at ID|TIME [PATH]` and `switchyard why PATH [--at ID|TIME]`: the past of
/// a bus, read from its data directory (``StateHistory``), so they work with or without a
/// running bus. The plugin set (`--config`) gives the reducers that rebuild the state and, unless
/// `--data-dir` or `--bus` names another, the data directory. Exit 0, 1 when the journal holds
/// no such moment or value (or cannot be read), 2 for a wrong command line, 78 for an invalid
/// configuration.
struct HistoryCommand: Sendable {
    let why: Bool
    let path: String
    let point: HistoryPoint?
    let configuration: String
    let dataDirectory: String?
    let bus: String?
    let json: Bool

    /// - Throws: ``UsageError`` without `--config`, with both `--data-dir` and `--bus`, or for
    ///   an `--at` that is neither an action id nor an ISO 8601 time.
    init(_ parsed: ParsedArguments) throws(UsageError) {
        why = parsed.path == ["why"]
        path = parsed[positional: "PATH"] ?? ""
        json = parsed.flag("json")
        bus = parsed.value("bus")
        dataDirectory = parsed.value("data-dir") ?? parsed.value("data-directory")
        guard let configuration = parsed.value("config") else {
            throw UsageError("\(why ? "why" : "--at") needs --config FILE: the plugin set whose reducers rebuild the state (and, without --data-dir, whose data directory to read)",
                             path: parsed.path)
        }
        self.configuration = configuration
        if dataDirectory != nil, bus != nil { throw UsageError("give one of --data-dir, --bus, not both", path: parsed.path) }
        do {
            point = try parsed.value("at").map { text throws(HistoryError) in try HistoryPoint(text) }
        } catch {
            throw UsageError("--at: " + error.message, path: parsed.path)
        }
    }

    func run() -> ExitStatus {
        let history: StateHistory
        do {
            history = try ConfigurationLoader.history(configuration, dataDirectory: dataDirectory ?? bus.map(BusLocator().directory(ofBus:))).history
        } catch {
            return .reporting(error)
        }
        do throws(HistoryError) {
            if why {
                let explanation = try history.why(path: path, at: point)
                Output.out(json ? explanation.json.serialized() : Self.text(explanation))
            } else {
                var at = point
                if at == nil { at = .id(try history.latestID()) }
                let moment = try history.moment(at: at ?? .id(1))
                guard let value = moment.state.value(atPath: path) else {
                    throw HistoryError(code: "not-found", message: "the state had no value at \(JSON.string(path)) after action \(moment.action.id)")
                }
                Output.error("state after action \(moment.action.id) (\(moment.action.type), \(Timestamp.iso8601(moment.action.time)))")
                Output.out(json ? value.serialized() : value.prettyPrinted())
            }
            return .success
        } catch {
            return .reporting(error)
        }
    }

    /// `location.latitude = 52.1 after action 57`, the change and its causes, one a line.
    static func text(_ explanation: StateHistory.Explanation) -> String {
        func name(_ action: BusAction) -> String {
            "action \(action.id) \(action.type) from \(action.source) at \(Timestamp.iso8601(action.time))"
        }
        let shown = explanation.path.isEmpty ? "the state" : explanation.path
        var lines = ["\(shown) = \(explanation.value.serialized()) after action \(explanation.moment.id)"]
        guard let change = explanation.changedBy else {
            lines.append("no action changed it: it is the initial value")
            return lines.joined(separator: "\n")
        }
        let before = explanation.before.map { $0.serialized() } ?? "(missing)"
        let after = explanation.after.map { $0.serialized() } ?? "(missing)"
        lines.append("changed by \(name(change)): \(before) → \(after)")
        lines += explanation.causes.map { "  caused by \(name($0))" }
        if let missing = explanation.missingCause { lines.append("  caused by action \(missing), no longer in the journal") }
        if change.cause == nil || explanation.causes.last?.cause == nil && explanation.missingCause == nil {
            lines.append("  (\(explanation.causes.last.map { "action \($0.id)" } ?? "that action") came from outside: no cause)")
        }
        return lines.joined(separator: "\n")
    }
}

extension ConfigurationLoader {
    /// The configuration at `path` (for its slices) and the history of `dataDirectory` (default:
    /// the configuration's) reduced with its reducers.
    /// - Throws: ``ConfigurationError`` for an invalid configuration.
    static func history(_ path: String, dataDirectory: String?) throws -> (configuration: BusConfiguration, history: StateHistory) {
        let loaded = try loadForSlices(path, registry: BuiltInPlugins.registry)
        let model = try BusStateModel(configuration: loaded, registry: BuiltInPlugins.registry)
        return (loaded, StateHistory(dataDirectory: dataDirectory ?? loaded.bus.dataDirectory, model: model))
    }
}

extension ExitStatus {
    /// Prints `error` on stderr and returns its exit status: a configuration error as itself
    /// (78), a look into the past as `switchyard: error: MESSAGE` (1), anything else as
    /// `switchyard: error: …` (1).
    static func reporting(_ error: any Error) -> ExitStatus {
        switch error {
        case let error as ConfigurationError:
            Output.error(error.description)
            return .invalidConfiguration
        case let error as HistoryError:
            Output.error("switchyard: error: \(error.message)")
        default:
            Output.error("switchyard: error: \(error)")
        }
        return .failure
    }
}
