import Foundation
import SwitchyardTestSupport
import Testing

/// Ctrl-C during long journal work (import, verify, export of 300,000 actions): exit 130
/// promptly, nothing half-written, an interrupted import an in-order prefix that says how far
/// it got; progress lines on a terminal only.
@Suite(.serialized)
struct InterruptTests {
    static let count = 300_000

    /// A directory with `many.jsonl`: `count` actions as `journal export` writes them.
    private func recording() throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        var text = ""
        text.reserveCapacity(Self.count * 170)
        for id in 1...Self.count {
            text += #"{"cause":null,"id":\#(id),"payload":{"n":\#(id),"text":"a payload of some length"},"#
                + #""source":"control","time":"2026-11-22T09:30:00.000Z","type":"note/n"}"# + "\n"
        }
        _ = try directory.write("many.jsonl", text)
        return directory
    }

    /// Starts `arguments` with stderr on a pseudo-terminal, waits until the terminal shows
    /// `phase` (its progress line), sends SIGINT and returns the exit status and what the
    /// terminal showed.
    private func interrupt(_ arguments: [String], in directory: TemporaryDirectory, during phase: String) async throws
        -> (status: Int32, terminal: String, stdout: String) {
        let terminal = try PseudoTerminal()
        let process = try SwitchyardProcess(arguments, directory: directory.url, errorOutput: terminal.terminal)
        let shown = Locked("")
        let reached = await process.wait(timeout: .seconds(120)) { _ in
            shown.withLock { $0 += terminal.readAvailable(); return $0.contains(phase + ":") }
        }
        #expect(reached, "\(arguments) showed no \(phase) progress: \(shown.withLock { $0 })")
        process.signal(SIGINT)
        let status = await process.exitStatus(timeout: .seconds(30))
        try await Task.sleep(for: .milliseconds(100))
        let output = shown.withLock { $0 += terminal.readAvailable(); return $0 }
        return (status, output, process.stdout)
    }

    /// An import interrupted while it appends exits 130 and leaves the file's first actions,
    /// in order and whole: the journal verifies, and the summary says how many.
    @Test func interruptedImportLeavesAnInOrderPrefix() async throws {
        let directory = try recording()
        let result = try await interrupt(["journal", "import", "many.jsonl", "--data-dir", "data"], in: directory, during: "importing")
        #expect(result.status == 130, "\(result.terminal)")
        let summary = try #require(result.stdout.split(separator: "\n").first.map(String.init), "\(result.terminal)")
        #expect(summary.hasPrefix("interrupted: imported the first "), "\(summary)")
        let imported = try #require(Int(summary.dropFirst("interrupted: imported the first ".count).prefix { $0.isNumber }))
        #expect(imported > 0 && imported < Self.count)
        #expect(summary.contains("of \(Self.count) actions (recorded ids 1-\(imported)) as ids 1-\(imported)"), "\(summary)")
        let verified = try SwitchyardProcess(["journal", "verify", "--data-dir", "data"], directory: directory.url)
        #expect(await verified.exitStatus() == 0, "\(verified.stderr)")
        #expect(verified.stdout.contains("\(imported) actions (1-\(imported))"), "\(verified.stdout)")
        let shown = try SwitchyardProcess(["journal", "show", "--data-dir", "data"], directory: directory.url)
        #expect(await shown.exitStatus() == 0)
        let payloads = shown.stdout.split(separator: "\n").map { ((object(String($0))["payload"] as? [String: Any])?["n"] as? Int) }
        #expect(payloads == (1...imported).map { $0 }, "the journal is not the file's first \(imported) actions in order")
    }

    /// Verify and export interrupted while they read exit 130 at once, write nothing (no
    /// `FILE`, no `FILE.tmp`), and the journal is as it was; `run` stops while it restores.
    /// Piped, they show no progress.
    @Test func interruptedVerifyAndExportExit130() async throws {
        let directory = try recording()
        let imported = try SwitchyardProcess(["journal", "import", "many.jsonl", "--data-dir", "data"], directory: directory.url)
        #expect(await imported.exitStatus(timeout: .seconds(300)) == 0, "\(imported.stderr)")
        #expect(!imported.stderr.contains("\r") && !imported.stderr.contains("importing:") && !imported.stderr.contains("restoring:"),
                "progress on a pipe: \(imported.stderr)")

        let verify = try await interrupt(["journal", "verify", "--data-dir", "data"], in: directory, during: "verifying")
        #expect(verify.status == 130, "\(verify.terminal)")
        #expect(verify.terminal.contains("interrupted: the journal was not verified to its end"), "\(verify.terminal)")
        #expect(!verify.stdout.contains("ok:"))

        let export = try await interrupt(["journal", "export", "--data-dir", "data", "-o", "out.jsonl"], in: directory, during: "reading")
        #expect(export.status == 130, "\(export.terminal)")
        #expect(export.terminal.contains("interrupted: nothing was exported"), "\(export.terminal)")
        for name in ["out.jsonl", "out.jsonl.tmp"] {
            #expect(!FileManager.default.fileExists(atPath: directory.path(name)), "\(name) was left behind")
        }

        // `run` shows its restore and stops during it, with exit 0 as on any stop.
        _ = try directory.write("big.json", #"{"bus": {"name": "big", "dataDirectory": "data"}, "plugins": []}"#)
        let run = try await interrupt(["run", "big.json"], in: directory, during: "restoring")
        #expect(run.status == 0, "\(run.terminal)")
        #expect(run.terminal.contains("SIGINT: stopping while restoring the journal; nothing was started"), "\(run.terminal)")

        // `replay` shows its feed and stops it: the actions replayed so far stay, whole.
        let replay = try await interrupt(["replay", "data", "--config", "big.json", "--as-fast-as-possible", "--data-dir", "replayed"],
                                         in: directory, during: "replaying")
        #expect(replay.status == 130, "\(replay.terminal)")
        let replayed = try #require(Int(replay.stdout.dropFirst("replayed ".count).prefix { $0.isNumber }), "\(replay.stdout)")
        #expect(replayed > 0 && replayed < Self.count, "\(replay.stdout)")
        let copy = try SwitchyardProcess(["journal", "verify", "--data-dir", "replayed"], directory: directory.url)
        #expect(await copy.exitStatus() == 0, "\(copy.stderr)")

        let piped = try SwitchyardProcess(["journal", "verify", "--data-dir", "data"], directory: directory.url)
        #expect(await piped.exitStatus(timeout: .seconds(300)) == 0, "\(piped.stderr)")
        #expect(piped.stdout.contains("\(Self.count) actions (1-\(Self.count))"), "\(piped.stdout)")
        #expect(piped.stderr.isEmpty, "progress on a pipe: \(piped.stderr)")
    }
}
