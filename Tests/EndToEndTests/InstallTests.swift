import Foundation
import SwitchyardTestSupport
import Testing

/// The install of docs/install.md, done by `Scripts/install` into a temporary root: the installed
/// demo validates from any working directory (the unit runs in /var/lib/switchyard/NAME), the
/// installed unit verifies with every file it names present, and the installed README's links
/// into docs/ find their pages.
@Suite(.serialized)
struct InstallTests {
    @Test func installedDemoValidatesAndUnitVerifies() async throws {
        let root = try TemporaryDirectory()
        let build = SwitchyardProcess.executable.deletingLastPathComponent().path
        let install = try Self.run(SwitchyardProcess.packageRoot.appendingPathComponent("Scripts/install").path, [],
                                   environment: ["DESTDIR": root.url.path, "BUILD": build])
        #expect(install.status == 0, "Scripts/install: \(install.output)")
        let prefix = root.url.path
        let unitPath = prefix + "/etc/systemd/system/switchyard@.service"
        let unit = try String(contentsOfFile: unitPath, encoding: .utf8)
        // Documentation= names a file the install put there.
        let documentation = try #require(unit.split(separator: "\n").first { $0.hasPrefix("Documentation=file://") })
        let readme = String(documentation.dropFirst("Documentation=file://".count))
        #expect(FileManager.default.fileExists(atPath: prefix + readme))
        // The README is short and links the reference in docs/: every page it links is installed beside it.
        let linked = try String(contentsOfFile: prefix + readme, encoding: .utf8)
            .matches(of: /\]\((docs\/[^)#\s]+)/).map { String($0.output.1) }
        #expect(!linked.isEmpty, "the installed README links no page of docs/")
        let folder = (prefix + readme as NSString).deletingLastPathComponent
        for page in Set(linked) {
            #expect(FileManager.default.fileExists(atPath: folder + "/" + page), "the installed README links \(page), which is not installed")
        }

        // man and the shells find what they load where they look under /usr/local.
        let manual = try String(contentsOfFile: prefix + "/usr/local/share/man/man1/switchyard.1", encoding: .utf8)
        #expect(manual.hasPrefix(".TH SWITCHYARD 1"))
        for (path, firstLine) in [("bash-completion/completions/switchyard", "# bash completion for switchyard"),
                                  ("zsh/site-functions/_switchyard", "#compdef switchyard"),
                                  ("fish/vendor_completions.d/switchyard.fish", "# fish completion for switchyard")] {
            let script = try String(contentsOfFile: prefix + "/usr/local/share/" + path, encoding: .utf8)
            #expect(script.hasPrefix(firstLine), "\(path): \(script.prefix(80))")
        }

        // ExecStartPre, from the unit's working directory (not the source tree), with the installed executable.
        let workingDirectory = try TemporaryDirectory()
        let validate = try Self.run(prefix + "/usr/local/bin/switchyard", ["validate", prefix + "/etc/switchyard/demo.json"],
                                    in: workingDirectory.url)
        #expect(validate.status == 0, "validate: \(validate.output)")

        guard let analyze = ["/usr/bin/systemd-analyze", "/bin/systemd-analyze"].first(where: FileManager.default.isExecutableFile) else {
            try #require(ProcessInfo.processInfo.environment["CI"] == nil, "systemd-analyze is missing (Debian package systemd)")
            print("skipped: systemd-analyze is missing (Debian package systemd)")
            return
        }
        // The installed unit as instance `demo`, its absolute paths under the temporary root.
        let instance = try workingDirectory.write("switchyard@demo.service", unit
            .replacingOccurrences(of: "/usr/local/", with: prefix + "/usr/local/")
            .replacingOccurrences(of: "/etc/switchyard/", with: prefix + "/etc/switchyard/"))
        let verify = try Self.run(analyze, ["verify", instance])
        #expect(verify.status == 0, "systemd-analyze verify: \(verify.output)")
    }

    /// Runs `executable` to its end; its status and its stdout and stderr together.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                    in directory: URL? = nil) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        if let directory { process.currentDirectoryURL = directory }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }
}
