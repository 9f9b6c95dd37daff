import Testing
@testable import switchyard

struct ArgumentParserTests {
    let parser = ArgumentParser(root: CommandTable.root)

    private func parsed(_ words: [String]) throws -> ParsedArguments {
        guard case .command(let parsed) = try parser.parse(CommandTable.normalized(words)) else {
            throw UsageError("asked for help")
        }
        return parsed
    }

    /// `--opt value`, `--opt=value`, `-n value` and `-nvalue` all give the same value.
    @Test(arguments: [
        ["tail", "--count", "3"], ["tail", "--count=3"], ["tail", "gps/*", "--count", "3"], ["tail", "--count=3", "gps/*"],
    ])
    func longOptionSpellings(words: [String]) throws {
        #expect(try parsed(words).value("count") == "3")
    }

    /// The short spellings of `-n`: separate, attached, and with `=`.
    @Test(arguments: [["tail", "-n", "5"], ["tail", "-n5"], ["tail", "-n=5"], ["tail", "--lines", "5"], ["tail", "--lines=5"]])
    func shortOptionSpellings(words: [String]) throws {
        #expect(try parsed(words).integer("lines") == 5)
    }

    /// Positionals are taken in order, with options anywhere among them.
    @Test(arguments: [
        (["send", "demo/hello", "{}", "--socket", "/s"], "demo/hello", "{}"),
        (["send", "--socket=/s", "demo/hello", "{}"], "demo/hello", "{}"),
        (["send", "demo/hello", "--socket", "/s"], "demo/hello", nil),
        (["send", "a/b", "-1"], "a/b", "-1"),
        (["send", "a/b", "-41.25"], "a/b", "-41.25"),
        (["send", "--", "a/b", "--not-an-option"], "a/b", "--not-an-option"),
    ] as [([String], String, String?)])
    func positionals(words: [String], type: String, payload: String?) throws {
        let arguments = try parsed(words)
        #expect(arguments[positional: "TYPE"] == type)
        #expect(arguments[positional: "JSON"] == payload)
    }

    /// `--help` and `-h` anywhere ask for the help of the command chosen so far.
    @Test(arguments: [
        (["run", "--help"], ["run"]), (["validate", "-h"], ["validate"]), (["tail", "-h"], ["tail"]),
        (["tail", "gps/*", "--count", "2", "--help"], ["tail"]), (["journal", "--help"], ["journal"]),
        (["journal", "show", "-h"], ["journal", "show"]), (["--help"], []), (["-h"], []),
    ] as [([String], [String])])
    func helpAnywhere(words: [String], path: [String]) throws {
        #expect(try parser.parse(words) == .help(path))
    }

    /// The program's shortcuts: nothing runs the default configuration, a lone FILE.json runs
    /// that file, `--version` is the version command.
    @Test(arguments: [
        ([], ["run"], nil), (["Config/x.json"], ["run"], "Config/x.json"), (["--version"], ["version"], nil),
    ] as [([String], [String], String?)])
    func shortcuts(words: [String], path: [String], config: String?) throws {
        let arguments = try parsed(words)
        #expect(arguments.path == path)
        #expect(arguments[positional: "CONFIG"] == config)
    }

    /// Wrong command lines are refused with a message that says what is wrong, for the command
    /// concerned.
    @Test(arguments: [
        (["frobnicate"], [], "unknown command \"frobnicate\""),
        (["tial"], [], "did you mean \"tail\"?"),
        (["tail", "--bogus"], ["tail"], "unknown option --bogus"),
        (["tail", "--cont", "3"], ["tail"], "did you mean --count?"),
        (["tail", "--count"], ["tail"], "--count needs a value (N)"),
        (["tail", "--json=yes"], ["tail"], "--json takes no value"),
        (["send", "a/b", "1", "2"], ["send"], "unexpected argument \"2\""),
        (["stats", "extra"], ["stats"], "takes no arguments, got \"extra\""),
        (["validate"], ["validate"], "missing CONFIG"),
        (["journal"], ["journal"], "missing subcommand (show, verify, compact, export, import, diff)"),
        (["journal", "rewind"], ["journal"], "unknown command \"rewind\""),
        (["tail", "-x"], ["tail"], "unknown option -x"),
    ] as [([String], [String], String)])
    func refusals(words: [String], path: [String], message: String) {
        #expect {
            _ = try parser.parse(CommandTable.normalized(words))
        } throws: { error in
            guard let error = error as? UsageError else { return false }
            return error.path == path && error.message.contains(message)
        }
    }

    /// A repeating positional takes every remaining word, joined by a space (several type
    /// patterns); options may come between them.
    @Test func repeatingPositionalTakesTheRest() throws {
        #expect(try parsed(["tail", "gps/*", "--count", "3", "*/changed"])[positional: "PATTERN"] == "gps/* */changed")
        #expect(try parsed(["journal", "show", "a/b"])[positional: "PATTERN"] == "a/b")
        #expect(try parsed(["tail"])[positional: "PATTERN"] == nil)
    }

    /// Integer options are checked: a count that is not a number is a usage error naming it.
    @Test(arguments: ["x", "-1", "1.5", ""])
    func integerOptionsAreChecked(value: String) throws {
        let arguments = try parsed(["tail", "--lines=\(value)"])
        #expect(throws: UsageError.self) { try arguments.integer("lines") }
    }

    /// The report of an error is short: the message, the usage line and a pointer to --help.
    @Test func errorReportIsShort() {
        let report = UsageError("unknown option --bogus", path: ["tail"]).report(root: CommandTable.root)
        let lines = report.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[0] == "switchyard tail: unknown option --bogus")
        #expect(lines[1].hasPrefix("usage: switchyard tail [PATTERN...]"))
        #expect(lines[2] == "See 'switchyard tail --help'.")
    }

    /// Every declared option has a unique long and short spelling within its command.
    @Test func specsAreConsistent() {
        for (path, spec) in CompletionScript(root: CommandTable.root).commands {
            let names = spec.options.map(\.name) + ["help"]
            #expect(Set(names).count == names.count, "duplicate option in \(path)")
            let shorts = spec.options.compactMap(\.short) + ["h"]
            #expect(Set(shorts).count == shorts.count, "duplicate short option in \(path)")
            #expect(spec.subcommands.isEmpty || spec.positionals.isEmpty, "\(path) has both subcommands and positionals")
        }
    }
}
