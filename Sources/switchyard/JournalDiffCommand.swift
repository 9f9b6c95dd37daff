import FoundationEssentials
import SwitchyardBus

/// `switchyard journal diff A B [--config CONFIG] [--types PATTERN]`: the first action where two
/// recordings, or the states after them, differ. Exit codes as diff(1): 0 the same, 1 they
/// differ, 2 trouble; 78 for an invalid configuration.
struct JournalDiffCommand: Sendable {
    /// The exit status for trouble: the recordings could not be compared.
    static let trouble = ExitStatus.usage

    let left: String
    let right: String
    let configuration: String?
    let pattern: TypePattern

    /// - Throws: ``UsageError`` for a pattern that does not parse.
    init(_ parsed: ParsedArguments) throws(UsageError) {
        left = parsed[positional: "A"] ?? ""
        right = parsed[positional: "B"] ?? ""
        configuration = parsed.value("config")
        if let text = parsed.value("types") {
            guard let pattern = TypePattern(text) else { throw UsageError("--types: " + ClientCommand.patternProblem(text), path: parsed.path) }
            self.pattern = pattern
        } else {
            pattern = .all
        }
    }

    func run() -> ExitStatus {
        var model: BusStateModel?
        if let configuration {
            do {
                let loaded = try ConfigurationLoader.loadForSlices(configuration, registry: BuiltInPlugins.registry)
                model = try BusStateModel(configuration: loaded, registry: BuiltInPlugins.registry)
            } catch {
                Output.error(error.description)
                return .invalidConfiguration
            }
        }
        do throws(JournalError) {
            let comparison = try JournalComparison.compare(try JournalRecording(path: left), try JournalRecording(path: right),
                                                           pattern: pattern, model: model)
            Output.out(comparison.description)
            return comparison.difference == nil ? .success : .failure
        } catch {
            Output.error("switchyard: error: \(error)")
            if error.isCorruption { Output.error("`switchyard journal verify --data-dir DIR` shows the damage.") }
            return Self.trouble
        }
    }
}
