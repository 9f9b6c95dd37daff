/// What the shell offers when completing a value.
enum CompletionValue: Sendable, Equatable {
    /// Nothing in particular: the user types the value.
    case none
    /// A file name (optionally only files ending in `extension`).
    case file(extension: String?)
    /// A directory name.
    case directory
    /// One of a fixed list of words.
    case words([String])
    /// The name of a known bus: a directory in `.switchyard/` or `/var/lib/switchyard/`
    /// (``BusLocator/standardRoots``).
    case bus
}

/// One option of a command: a flag (`--json`) or an option that takes a value
/// (`--since ID|TIME`, `-n N`).
///
/// A value is given as `--name value` or `--name=value`, a short option's as `-n value` or
/// `-nvalue`. Options may appear anywhere among the positionals, before a `--`.
struct OptionSpec: Sendable, Equatable {
    /// The long name without its dashes (`since`); the key the parsed value is stored under.
    let name: String
    /// The one-letter alias (`n` for `-n`), if any.
    let short: Character?
    /// The value's placeholder in help (`ID|TIME`); `nil` for a flag.
    let valueName: String?
    /// One line of help.
    let help: String
    /// How a shell completes the value.
    let completion: CompletionValue
    /// Whether it is left out of `--help` and completions (kept only for old command lines).
    let hidden: Bool

    /// A flag: present or not.
    static func flag(_ name: String, short: Character? = nil, help: String, hidden: Bool = false) -> OptionSpec {
        OptionSpec(name: name, short: short, valueName: nil, help: help, completion: .none, hidden: hidden)
    }

    /// An option with a value; given twice, the last one counts.
    static func value(_ name: String, short: Character? = nil, _ valueName: String, help: String,
                      completion: CompletionValue = .none, hidden: Bool = false) -> OptionSpec {
        OptionSpec(name: name, short: short, valueName: valueName, help: help, completion: completion, hidden: hidden)
    }

    /// Whether the option takes a value.
    var takesValue: Bool { valueName != nil }

    /// How it is spelled in usage lines: an option with a value by its short form when there
    /// is one (`-n N`, `--since ID|TIME`), a flag by its long name (`--follow`).
    var synopsis: String {
        let spelling = (takesValue ? short.map { "-\($0)" } : nil) ?? "--\(name)"
        return valueName.map { "\(spelling) \($0)" } ?? spelling
    }

    /// How it is spelled in the option list of `--help`: `-n, --count N`.
    var helpLabel: String {
        let label = (short.map { "-\($0), " } ?? "") + "--\(name)"
        return valueName.map { "\(label) \($0)" } ?? label
    }
}

/// One positional argument of a command.
struct PositionalSpec: Sendable, Equatable {
    /// Its placeholder (`CONFIG`), also the key the parsed value is stored under.
    let name: String
    /// One line of help.
    let help: String
    /// Whether the command runs without it.
    let isOptional: Bool
    /// How a shell completes it.
    let completion: CompletionValue
    /// Whether it takes every remaining word (the last positional only); they are stored
    /// joined by a space.
    let repeats: Bool

    init(_ name: String, optional: Bool = false, repeats: Bool = false, help: String, completion: CompletionValue = .none) {
        self.name = name
        self.isOptional = optional
        self.repeats = repeats
        self.help = help
        self.completion = completion
    }

    /// `CONFIG`, `[CONFIG]` or `[PATTERN...]`.
    var synopsis: String {
        let word = repeats ? name + "..." : name
        return isOptional ? "[\(word)]" : word
    }
}
