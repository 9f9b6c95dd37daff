import SwitchyardBus

/// Parses a command line against a tree of ``CommandSpec``s.
///
/// Rules, as in swift-argument-parser and the GNU tools: the first words choose the command;
/// options may come anywhere after it, as `--name value`, `--name=value`, `-n value` or
/// `-nvalue`; `--` ends the options; a lone `-` and words like `-1` or `-41.2` (numbers, which
/// JSON payloads and coordinates are) are positionals. `-h`/`--help` anywhere asks for the help
/// of the command chosen so far.
struct ArgumentParser: Sendable {
    /// What the command line asks for.
    enum Outcome: Sendable, Equatable {
        /// Run the command.
        case command(ParsedArguments)
        /// Print the help of the command at this path.
        case help([String])
    }

    let root: CommandSpec

    /// Parses `arguments` (without the program's name).
    /// - Throws: ``UsageError`` with the command it concerns, for unknown commands and options,
    ///   a missing or surplus argument, or an option without its value.
    func parse(_ arguments: [String]) throws(UsageError) -> Outcome {
        var command = root
        var path: [String] = []
        var remaining = arguments[...]
        // Choose the command: leading words that name subcommands.
        while !command.subcommands.isEmpty {
            guard let word = remaining.first else {
                if path.isEmpty { return .help([]) }
                throw UsageError("missing subcommand (\(Self.list(command.subcommands.map(\.name))))", path: path)
            }
            if word == "--help" || word == "-h" { return .help(path) }
            guard let next = command.subcommand(word) else {
                var message = word.hasPrefix("-") ? "unknown option \(word)" : "unknown command \"\(word)\""
                if let suggestion = DidYouMean.suggestion(for: word, among: command.subcommands.map(\.name)) {
                    message += "; did you mean \"\(suggestion)\"?"
                }
                throw UsageError(message, path: path)
            }
            remaining.removeFirst()
            path.append(word)
            command = next
        }
        var parsed = ParsedArguments(path: path)
        var positionals: [String] = []
        var optionsEnded = false
        while let word = remaining.popFirst() {
            if optionsEnded || !Self.isOption(word) {
                positionals.append(word)
                continue
            }
            if word == "--" {
                optionsEnded = true
                continue
            }
            if word == "--help" || word == "-h" { return .help(path) }
            let (option, attached) = try Self.option(word, in: command, path: path)
            if option.takesValue {
                guard let value = attached ?? remaining.popFirst() else {
                    throw UsageError("\(word) needs a value (\(option.valueName ?? "VALUE"))", path: path)
                }
                parsed.options[option.name] = value
            } else {
                if attached != nil { throw UsageError("--\(option.name) takes no value", path: path) }
                parsed.options[option.name] = ""
            }
        }
        let declared = command.positionals
        if let last = declared.last, last.repeats, positionals.count > declared.count {
            let rest = positionals[(declared.count - 1)...].joined(separator: " ")
            positionals = Array(positionals[..<(declared.count - 1)]) + [rest]
        }
        if positionals.count > declared.count {
            let surplus = positionals[declared.count]
            let message = declared.isEmpty ? "takes no arguments, got \"\(surplus)\"" : "unexpected argument \"\(surplus)\""
            throw UsageError(message, path: path)
        }
        for (index, spec) in declared.enumerated() {
            if index < positionals.count {
                parsed.positionals[spec.name] = positionals[index]
            } else if !spec.isOptional {
                throw UsageError("missing \(spec.name)", path: path)
            }
        }
        return .command(parsed)
    }

    /// A word that names an option rather than a value.
    static func isOption(_ word: String) -> Bool {
        guard word.hasPrefix("-"), word != "-" else { return false }
        return Double(word) == nil
    }

    /// The option `word` names, and the value attached to it (`--since=5`, `-n5`).
    private static func option(_ word: String, in command: CommandSpec, path: [String]) throws(UsageError) -> (OptionSpec, String?) {
        if word.hasPrefix("--") {
            let body = word.dropFirst(2)
            let name = body.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            let attached = body.firstIndex(of: "=").map { String(body[body.index(after: $0)...]) }
            guard let option = command.option(named: name) else { throw unknown("--\(name)", command: command, path: path) }
            return (option, attached)
        }
        let letter = word.dropFirst().first!
        guard let option = command.option(short: letter) else { throw unknown("-\(letter)", command: command, path: path) }
        let rest = String(word.dropFirst(2))
        if rest.isEmpty { return (option, nil) }
        guard option.takesValue else {
            throw UsageError("unknown option \(word) (-\(letter) takes no value, and short flags are not combined)", path: path)
        }
        return (option, rest.hasPrefix("=") ? String(rest.dropFirst()) : rest)
    }

    private static func unknown(_ spelling: String, command: CommandSpec, path: [String]) -> UsageError {
        var message = "unknown option \(spelling)"
        let spellings = command.options.map { "--\($0.name)" } + ["--help"]
        if let suggestion = DidYouMean.suggestion(for: spelling, among: spellings) {
            message += "; did you mean \(suggestion)?"
        }
        return UsageError(message, path: path)
    }

    private static func list(_ words: [String]) -> String {
        words.joined(separator: ", ")
    }
}
