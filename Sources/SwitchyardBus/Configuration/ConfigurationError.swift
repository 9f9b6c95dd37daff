/// A configuration that cannot be used, with every problem found in it.
///
/// Validation collects all problems before throwing, so one run of `switchyard validate` shows
/// everything to fix. The bus appends the problems its plugins report while being constructed.
public struct ConfigurationError: Error, Sendable, CustomStringConvertible {
    /// The configuration file as the user named it, such as `Config/tracker.json`.
    public var file: String
    /// The problems, in the order they were found.
    public var problems: [ConfigurationProblem]

    /// Creates an error for `file`; an error is usually thrown only once `problems` is not empty.
    public init(file: String, problems: [ConfigurationProblem] = []) {
        self.file = file
        self.problems = problems
    }

    /// Creates an error with one problem.
    public init(file: String, path: String, message: String) {
        self.init(file: file, problems: [ConfigurationProblem(path: path, message: message)])
    }

    /// Adds one problem.
    public mutating func append(_ problem: ConfigurationProblem) {
        problems.append(problem)
    }

    /// Adds problems, such as the ones a plugin's settings reported.
    public mutating func append(contentsOf newProblems: some Sequence<ConfigurationProblem>) {
        problems.append(contentsOf: newProblems)
    }

    /// Adds the problems of a plugin whose settings were rejected.
    public mutating func append(_ error: PluginSettingsError) {
        problems.append(contentsOf: error.problems)
    }

    /// Whether no problem has been recorded.
    public var isEmpty: Bool {
        problems.isEmpty
    }

    /// One line per problem: `Config/x.json: plugins[2].port: expected an integer 1-65535, got "abc"`.
    public var description: String {
        guard !problems.isEmpty else { return "\(file): invalid configuration" }
        return problems.map { "\(file): \($0)" }.joined(separator: "\n")
    }
}
