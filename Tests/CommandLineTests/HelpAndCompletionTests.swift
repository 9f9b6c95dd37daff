import Foundation
import Testing
@testable import switchyard

struct HelpAndCompletionTests {
    static let paths = CompletionScript(root: CommandTable.root).commands.map(\.path)

    /// Every command's help names its usage, each visible option and an example when it has any.
    @Test(arguments: paths)
    func helpListsOptions(path: [String]) throws {
        let spec = try #require(CommandTable.root.descendant(path))
        let help = HelpFormatter(root: CommandTable.root).help(for: path)
        #expect(help.contains("usage: switchyard"))
        for option in spec.visibleOptions { #expect(help.contains("--\(option.name)"), "\(path) help lacks --\(option.name)") }
        for example in spec.examples { #expect(help.contains(example.command)) }
        #expect(help.contains("-h, --help"))
    }

    /// The scripts name every command and every option.
    @Test(arguments: CompletionShell.allCases)
    func scriptsNameEverything(shell: CompletionShell) {
        let script = CompletionScript(root: CommandTable.root).script(for: shell)
        for (path, spec) in CompletionScript(root: CommandTable.root).commands {
            if let name = path.last { #expect(script.contains(name)) }
            for option in spec.visibleOptions { #expect(script.contains(option.name), "\(shell) lacks \(option.name)") }
        }
    }

    /// bash accepts its script (`bash -n`).
    @Test(.enabled(if: Shell.available("bash"), "needs bash (Debian package bash)"))
    func bashAcceptsTheScript() throws {
        try Shell.check(.bash, flags: ["-n"])
    }

    /// zsh accepts its script (`zsh -n`).
    @Test(.enabled(if: Shell.available("zsh"), "needs zsh (Debian package zsh)"))
    func zshAcceptsTheScript() throws {
        try Shell.check(.zsh, flags: ["-n"])
    }

    /// fish accepts its script (`fish --no-execute`).
    @Test(.enabled(if: Shell.available("fish"), "needs fish (Debian package fish)"))
    func fishAcceptsTheScript() throws {
        try Shell.check(.fish, flags: ["--no-execute"])
    }
}

/// Runs a shell's syntax check on a generated script.
enum Shell {
    /// Whether the shell is installed — or CI is set, where a missing shell must fail.
    static func available(_ name: String) -> Bool {
        path(name) != nil || ProcessInfo.processInfo.environment["CI"] != nil
    }

    static func path(_ name: String) -> String? {
        ["/usr/bin/\(name)", "/bin/\(name)"].first(where: FileManager.default.isExecutableFile(atPath:))
    }

    /// Writes the script for `shell` to a file and checks it with `flags`; records an issue
    /// with the shell's complaint when it refuses it.
    static func check(_ shell: CompletionShell, flags: [String]) throws {
        let executable = try #require(path(shell.rawValue), "\(shell) is not installed (Debian package \(shell))")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-completion-\(UUID().uuidString).\(shell)")
        defer { try? FileManager.default.removeItem(at: file) }
        try CompletionScript(root: CommandTable.root).script(for: shell).write(to: file, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = flags + [file.path]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(shell) refused the script: \(message)")
    }
}
