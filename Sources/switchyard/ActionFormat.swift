import Glibc

/// How `tail` and `journal show` print actions, one rule for both: the logger's text lines on
/// a terminal (for people), one JSON object a line when stdout is a pipe or file (for `jq` and
/// scripts); `--text` or `--json` chooses one whatever stdout is.
enum ActionFormat: Sendable, Equatable {
    case text
    case json

    /// The format the command line asks for, else the one stdout calls for.
    /// - Throws: ``UsageError`` when both `--text` and `--json` are given.
    init(_ parsed: ParsedArguments, stdoutIsTerminal: Bool = isatty(STDOUT_FILENO) == 1) throws(UsageError) {
        switch (parsed.flag("text"), parsed.flag("json")) {
        case (true, true): throw UsageError("--text and --json exclude each other: give one", path: parsed.path)
        case (true, false): self = .text
        case (false, true): self = .json
        case (false, false): self = stdoutIsTerminal ? .text : .json
        }
    }
}
