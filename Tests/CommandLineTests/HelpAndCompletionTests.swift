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
        let result = try run(executable, flags + [file.path])
        #expect(result.status == 0, "\(shell) refused the script: \(result.errors)")
    }

    /// Runs `executable` to its end in `directory`; its status, stdout and stderr.
    static func run(_ executable: String, _ arguments: [String], in directory: URL? = nil,
                    environment: [String: String]? = nil) throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if let environment { process.environment = environment }
        let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-stderr-\(UUID().uuidString)")
        // A file, not a pipe, so a chatty stderr cannot block the process while stdout is read.
        guard FileManager.default.createFile(atPath: errorFile.path, contents: nil) else { throw CocoaError(.fileWriteUnknown) }
        defer { try? FileManager.default.removeItem(at: errorFile) }
        let errorHandle = try FileHandle(forWritingTo: errorFile)
        defer { try? errorHandle.close() }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = errorHandle
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let errors = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
        return (process.terminationStatus, text, errors)
    }
}

/// The bash completion function, driven as bash drives it (`COMP_WORDS`, `COMP_CWORD`).
struct BashCompletionTests {
    /// The candidates bash offers for the last of `words`, typed in `directory`.
    private func candidates(_ words: [String], in directory: URL) throws -> [String] {
        let bash = try #require(Shell.path("bash"), "bash is not installed (Debian package bash)")
        let script = directory.appendingPathComponent("completion.bash")
        try CompletionScript(root: CommandTable.root).script(for: .bash).write(to: script, atomically: true, encoding: .utf8)
        let quoted = words.map { "'" + $0 + "'" }.joined(separator: " ")
        let command = #"source completion.bash; COMP_WORDS=(\#(quoted)); COMP_CWORD=\#(words.count - 1); _switchyard; printf '%s\n' "${COMPREPLY[@]}""#
        return try Shell.run(bash, ["-c", command], in: directory).output.split(separator: "\n").map(String.init).sorted()
    }

    /// A directory with two buses under .switchyard/, a configuration and a subdirectory.
    private func workingDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-completion-\(UUID().uuidString)")
        for path in [".switchyard/demo/journal", ".switchyard/tracker", "configs"] {
            try FileManager.default.createDirectory(at: directory.appendingPathComponent(path), withIntermediateDirectories: true)
        }
        for file in ["tracker.json", "notes.txt"] {
            try "{}".write(to: directory.appendingPathComponent(file), atomically: true, encoding: .utf8)
        }
        return directory
    }

    @Test(.enabled(if: Shell.available("bash"), "needs bash (Debian package bash)"))
    func helpCompletesCommands() throws {
        let directory = try workingDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let commands = try candidates(["switchyard", "help", ""], in: directory)
        #expect(commands == (CommandTable.commands.map(\.name) + ["help", "version"]).sorted())
        #expect(try candidates(["switchyard", "help", "jo"], in: directory) == ["journal"])
    }

    @Test(.enabled(if: Shell.available("bash"), "needs bash (Debian package bash)"))
    func busCompletesKnownBuses() throws {
        let directory = try workingDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try candidates(["switchyard", "state", "--bus", ""], in: directory) == ["demo", "tracker"])
        #expect(try candidates(["switchyard", "journal", "show", "--bus", "tr"], in: directory) == ["tracker"])
    }

    /// Directories (bash's own `compgen -d`, hidden ones included) and `.json` files, not other files.
    @Test(.enabled(if: Shell.available("bash"), "needs bash (Debian package bash)"))
    func configCompletesJSONFilesAndDirectories() throws {
        let directory = try workingDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let expected = [".switchyard", "configs", "tracker.json"]
        #expect(try candidates(["switchyard", "tail", "--config", ""], in: directory) == expected)
        #expect(try candidates(["switchyard", "run", ""], in: directory) == expected)
        #expect(try candidates(["switchyard", "run", "tr"], in: directory) == ["tracker.json"])
    }
}
