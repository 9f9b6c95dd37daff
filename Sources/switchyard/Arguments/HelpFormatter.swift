import FoundationEssentials
import SwitchyardBus

/// The `--help` text of a command, laid out from its ``CommandSpec``.
struct HelpFormatter: Sendable {
    let root: CommandSpec
    /// The width a label column may take before its help moves to the next line.
    var labelWidth = 24

    /// The help of the command at `path`.
    func help(for path: [String]) -> String {
        guard let command = root.descendant(path) else { return help(for: []) }
        var sections: [String] = []
        let title = (["switchyard"] + path).joined(separator: " ")
        sections.append("\(title): \(command.abstract)")
        sections.append("usage: \(command.usageLine(path: path))")
        if !command.subcommands.isEmpty {
            sections.append("commands:\n" + rows(command.subcommands.map { ($0.name, $0.abstract) }))
        }
        if !command.positionals.isEmpty {
            sections.append("arguments:\n" + rows(command.positionals.map { ($0.name, $0.help) }))
        }
        let options = command.visibleOptions + [CommandSpec.helpOption]
        sections.append("options:\n" + rows(options.map { ($0.helpLabel, $0.help) }))
        if !command.discussion.isEmpty { sections.append(command.discussion) }
        if !command.examples.isEmpty {
            sections.append("examples:\n" + command.examples.map { "  \($0.command)\n      \($0.explanation)" }.joined(separator: "\n"))
        }
        if !command.subcommands.isEmpty {
            sections.append("See '\(title) COMMAND --help' for a command's options.")
        }
        return sections.joined(separator: "\n\n")
    }

    /// Two columns, the second aligned; a label too wide puts its text on the next line.
    private func rows(_ rows: [(String, String)]) -> String {
        let width = min(labelWidth, rows.map(\.0.count).max() ?? 0)
        return rows.map { label, text in
            if label.count > width { return "  \(label)\n  \(String(repeating: " ", count: width))  \(text)" }
            return "  \(label.padded(to: width))  \(text)"
        }.joined(separator: "\n")
    }
}
