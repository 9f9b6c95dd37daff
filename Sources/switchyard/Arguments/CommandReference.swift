/// The command reference of docs/command-line.md: one usage line per command and what it does,
/// generated from the command tree so a test can check the page against what runs.
struct CommandReference: Sendable {
    let root: CommandSpec

    /// Every runnable command (those without subcommands), in declaration order:
    /// `switchyard tail [PATTERN] [-n N] …` then its abstract, indented.
    var text: String {
        CompletionScript(root: root).commands
            .filter { !$0.path.isEmpty && $0.spec.subcommands.isEmpty }
            .map { "\($0.spec.usageLine(path: $0.path))\n    \($0.spec.abstract)" }
            .joined(separator: "\n")
    }
}
