/// Why a command line cannot be used: the message, and the command it concerns (for the short
/// usage and the pointer to its `--help`).
struct UsageError: Error, Equatable, CustomStringConvertible {
    /// What is wrong, without the program's name: `unknown option --folow; did you mean --follow?`.
    let message: String
    /// The words of the command it concerns (`["journal", "show"]`); empty for the program.
    var path: [String]

    init(_ message: String, path: [String] = []) {
        self.message = message
        self.path = path
    }

    var description: String { message }

    /// What the program prints on stderr: the message, the command's usage line and where to
    /// read more — a few lines, not the whole manual.
    func report(root: CommandSpec) -> String {
        let command = root.descendant(path) ?? root
        let name = (["switchyard"] + path).joined(separator: " ")
        return """
            \(name): \(message)
            usage: \(command.usageLine(path: path))
            See '\(name) --help'.
            """
    }
}
