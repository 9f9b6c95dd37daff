/// The problems found in one plugin's settings, thrown by ``PluginSettings/finish()``.
public struct PluginSettingsError: Error, Sendable, CustomStringConvertible {
    /// Every problem recorded while the settings were read, unknown keys last.
    public var problems: [ConfigurationProblem]

    /// Creates an error from recorded problems.
    public init(problems: [ConfigurationProblem]) {
        self.problems = problems
    }

    /// One line per problem, each with its key path.
    public var description: String {
        problems.map(\.description).joined(separator: "\n")
    }
}
