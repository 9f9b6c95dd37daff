/// What to run as a child process: the executable, its arguments, its environment and its
/// working directory.
struct ChildCommand: Sendable, Hashable {
    /// A path (containing `/`, resolved against ``workingDirectory`` when relative) or a name
    /// looked up in the bus's `PATH`.
    var executable: String
    /// The arguments after the executable's own name.
    var arguments: [String]
    /// The child's whole environment.
    var environment: [String: String]
    /// The directory the child starts in; `nil` keeps the bus's.
    var workingDirectory: String?

    /// Creates a command; an empty environment gives the child none at all.
    init(executable: String, arguments: [String] = [], environment: [String: String] = [:], workingDirectory: String? = nil) {
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
        self.workingDirectory = workingDirectory
    }

    /// The command as a person would type it, for logs and errors.
    var displayText: String {
        ([executable] + arguments).joined(separator: " ")
    }
}
