/// A command of the program, declared as data: its arguments, options, examples and
/// subcommands. The parser, `--help`, the short usage of an error and the shell completions
/// are all derived from it, so they cannot disagree.
struct CommandSpec: Sendable {
    /// A command line worth showing, and what it does.
    struct Example: Sendable, Equatable {
        let command: String
        let explanation: String

        init(_ command: String, _ explanation: String) {
            self.command = command
            self.explanation = explanation
        }
    }

    /// The word that selects it (`show` in `switchyard journal show`).
    let name: String
    /// One line: what it does.
    let abstract: String
    /// Paragraphs for `--help` after the option list.
    var discussion: String = ""
    /// Its positional arguments, in order.
    var positionals: [PositionalSpec] = []
    /// Its options; `--help`/`-h` is implied.
    var options: [OptionSpec] = []
    /// Command lines shown in `--help`.
    var examples: [Example] = []
    /// Commands below it; a command with subcommands takes no positionals of its own.
    var subcommands: [CommandSpec] = []

    /// The subcommand called `name`.
    func subcommand(_ name: String) -> CommandSpec? {
        subcommands.first { $0.name == name }
    }

    /// The command reached by the words of `path` from this one.
    func descendant(_ path: [String]) -> CommandSpec? {
        var command = self
        for word in path {
            guard let next = command.subcommand(word) else { return nil }
            command = next
        }
        return command
    }

    /// The option with the long name `name`.
    func option(named name: String) -> OptionSpec? {
        options.first { $0.name == name }
    }

    /// The option spelled `-c`.
    func option(short: Character) -> OptionSpec? {
        options.first { $0.short == short }
    }

    /// The options shown to people.
    var visibleOptions: [OptionSpec] { options.filter { !$0.hidden } }

    /// The implied help flag, listed with the others.
    static let helpOption = OptionSpec.flag("help", short: "h", help: "show this help")

    /// One usage line: `switchyard tail [PATTERN] [-n N] [--count N] [--json]`, or for a command
    /// with subcommands `switchyard journal show|verify|compact ...`.
    func usageLine(path: [String]) -> String {
        var words = ["switchyard"] + path
        if !subcommands.isEmpty {
            words.append(path.isEmpty ? "COMMAND" : subcommands.map(\.name).joined(separator: "|"))
            words.append("...")
        } else {
            words += positionals.map(\.synopsis)
            words += visibleOptions.map { "[\($0.synopsis)]" }
        }
        return words.joined(separator: " ")
    }
}
