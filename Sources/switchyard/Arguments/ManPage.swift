/// The manual page, `man switchyard`, in roff (the `man` macros), generated from the command
/// tree like `--help` and the completions, so it cannot drift from what the program accepts.
/// `switchyard help --man` prints it; `Scripts/install` installs it as `switchyard.1`.
struct ManPage: Sendable {
    let root: CommandSpec
    let version: String

    /// The whole page.
    var roff: String {
        var lines = [
            #".TH SWITCHYARD 1 "" "switchyard \#(version)" "User Commands""#,
            ".SH NAME",
            "switchyard \\- " + Self.escaped(root.abstract),
            ".SH SYNOPSIS",
            ".B switchyard",
            "[\\fICONFIG.json\\fR]",
            ".br",
            ".B switchyard",
            "\\fICOMMAND\\fR [\\fIARGUMENTS\\fR] [\\fIOPTIONS\\fR]",
            ".SH DESCRIPTION",
        ]
        lines += paragraphs(root.discussion)
        lines += [
            ".PP",
            "Every command has its own help: \\fBswitchyard \\fICOMMAND \\fB\\-\\-help\\fR. Options take \\fB\\-\\-name value\\fR or",
            "\\fB\\-\\-name=value\\fR, anywhere after the command; \\fB\\-\\-\\fR ends them.",
            ".SH COMMANDS",
        ]
        for (path, spec) in CompletionScript(root: root).commands where !path.isEmpty && spec.subcommands.isEmpty {
            lines += command(spec, path: path)
        }
        lines += [
            ".SH ENVIRONMENT",
            ".TP",
            ".B SWITCHYARD_DATA",
            "The data directory clients and journal commands use when the command line names none.",
            ".TP",
            ".B NOTIFY_SOCKET",
            "Where \\fBrun\\fR sends READY=1, RELOADING=1 and STOPPING=1 (systemd Type=notify).",
            ".SH FILES",
            ".TP",
            ".I .switchyard/NAME/",
            "The data directory of the bus called NAME: its journal, lock and control socket (control.sock).",
            ".TP",
            ".I Config/default.json",
            "The configuration \\fBswitchyard\\fR runs without a CONFIG argument, relative to the working directory.",
            ".SH SEE ALSO",
            "The reference in /usr/local/share/doc/switchyard/ (README.md and docs/).",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// One command: its usage as a subsection, what it does, its arguments, options and examples.
    private func command(_ spec: CommandSpec, path: [String]) -> [String] {
        var lines = [".SS \"\(Self.escaped((["switchyard"] + path).joined(separator: " ")))\"", ".B " + Self.escaped(spec.usageLine(path: path)), ".PP"]
        lines.append(Self.escaped(spec.abstract) + ".")
        lines += paragraphs(spec.discussion)
        for positional in spec.positionals {
            lines += [".TP", ".I " + Self.escaped(positional.name), Self.escaped(positional.help)]
        }
        for option in spec.visibleOptions {
            lines += [".TP", ".B " + Self.escaped(option.helpLabel), Self.escaped(option.help)]
        }
        if !spec.examples.isEmpty {
            lines += [".PP", "Examples:", ".RS", ".nf"]
            for example in spec.examples {
                lines += [Self.escaped(example.command), "    " + Self.escaped(example.explanation)]
            }
            lines += [".fi", ".RE"]
        }
        return lines
    }

    /// Text as paragraphs: a blank line between them, each line escaped.
    private func paragraphs(_ text: String) -> [String] {
        guard !text.isEmpty else { return [] }
        return [".PP"] + text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.isEmpty ? ".PP" : Self.escaped(String(line))
        }
    }

    /// `text` as roff reads it literally: backslashes and hyphens escaped, characters past
    /// ASCII named (`\[u00D7]`), and a line that would start with a control character (`.` or
    /// `'`) guarded.
    static func escaped(_ text: String) -> String {
        var body = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": body += "\\e"
            case "-": body += "\\-"
            case _ where scalar.isASCII: body.unicodeScalars.append(scalar)
            default:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                body += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            }
        }
        return body.hasPrefix(".") || body.hasPrefix("'") ? "\\&" + body : body
    }
}
