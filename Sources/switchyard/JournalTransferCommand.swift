import FoundationEssentials
import Glibc
import SwitchyardBus

/// `switchyard journal export | import`: a range of a journal as JSON lines and back, so a
/// recording travels with a bug report.
struct JournalTransferCommand: Sendable {
    let export: Bool
    let options: ClientOptions
    let query: JournalQuery
    /// `--output` for export, the `FILE` positional for import; `nil` or `-` for stdout/stdin.
    let file: String?
    /// For export: the location history as GPX or GeoJSON instead of JSON lines.
    let tracks: TrackExport?

    /// The command a parsed `journal export|import` line asks for.
    /// - Throws: ``UsageError`` for a bad range, pattern or format.
    init(_ parsed: ParsedArguments, options: ClientOptions) throws(UsageError) {
        export = parsed.path.last == "export"
        self.options = options
        query = try RecordedRange.query(parsed)
        file = export ? parsed.value("output") : parsed[positional: "FILE"]
        let format = export ? try TrackExport.Format.parse(parsed) : .jsonl
        tracks = format == .jsonl && parsed.value("plugin") == nil ? nil : try TrackExport(format: format, parsed)
    }

    /// What Ctrl-C prints when it ends the command at once, while it only reads.
    var interruptedEnding: String {
        export ? "interrupted: nothing was exported" : "interrupted: nothing was imported"
    }

    /// Runs the command; `work` shows its progress and takes Ctrl-C.
    func run(_ work: LongWork) -> ExitStatus {
        guard let dataDirectory = options.dataDirectoryOrReport() else { return .failure }
        let directory = JournalDirectory(dataDirectory: dataDirectory)
        defer { work.finish() }
        do throws(JournalError) {
            if export, let file, file != "-" { try ExportTarget.check(file, dataDirectory: dataDirectory) }
            if export, let tracks {
                try exportTracks(tracks, from: directory, work)
            } else if export {
                try exportActions(from: directory, work)
            } else {
                try importActions(into: directory, work)
            }
            return work.interruptedStatus ?? .success
        } catch {
            work.finish()
            Output.error("switchyard: error: \(error)")
            if error.isCorruption, export {
                Output.error("`switchyard journal verify` shows the damage; `switchyard journal verify --repair` keeps the journal up to it and moves the rest aside (nothing is deleted).")
            }
            return .failure
        }
    }

    /// Writes the range to the file (through a temporary file renamed into place, so a failed
    /// export leaves no partial file) or to stdout.
    private func exportActions(from directory: JournalDirectory, _ work: LongWork) throws(JournalError) {
        let actions = try recordedActions(directory, work)
        var bytes: [UInt8] = []
        for action in actions { ActionLines.append(action, to: &bytes) }
        try deliver(bytes, work, done: "exported \(actions.count) action\(actions.count == 1 ? "" : "s")")
    }

    /// The actions of the range, read with progress (phase `reading`).
    private func recordedActions(_ directory: JournalDirectory, _ work: LongWork) throws(JournalError) -> [BusAction] {
        guard access(directory.path, F_OK) == 0 else {
            throw .system(path: directory.path, operation: "export", reason: "there is no journal (No such file or directory)")
        }
        let actions = try RecordedRange.actions(of: try JournalRecording(path: directory.path), query, progress: work.progress)
        work.finish()
        return actions
    }

    /// Writes an export to stdout, or to the file through a temporary file renamed into place.
    /// A Ctrl-C during the file's write lets it finish whole (it is quick next to the reading),
    /// then the command exits as interrupted.
    private func deliver(_ bytes: [UInt8], _ work: LongWork, done: String) throws(JournalError) {
        guard let file, file != "-" else {
            if !Output.out(bytes: bytes) { throw .system(path: "stdout", operation: "write to", reason: "it was closed") }
            return
        }
        guard work.progress.beginWriting() else { return }
        try FileTransfer.write(bytes, to: file)
        Output.error("\(done) to \(file)")
    }

    /// Writes the location history of the range, or says why there is none (exit 1, nothing
    /// written).
    private func exportTracks(_ tracks: TrackExport, from directory: JournalDirectory, _ work: LongWork) throws(JournalError) {
        let actions = try recordedActions(directory, work)
        let range = query.since == nil && query.until == nil ? "in the journal" : "in the range"
        let bytes: [UInt8]
        do {
            bytes = try tracks.document(actions, range: range, created: Date())
        } catch {
            throw .system(path: directory.path, operation: "export", reason: error.description)
        }
        try deliver(bytes, work, done: "exported the location history")
    }

    /// Appends the file's actions; after Ctrl-C during the appends, says how many went in.
    private func importActions(into directory: JournalDirectory, _ work: LongWork) throws(JournalError) {
        let name = file ?? "-"
        let bytes = name == "-" ? FileTransfer.readStandardInput() : try FileTransfer.read(name)
        let actions = try ActionLines.parse(bytes, file: name == "-" ? "stdin" : name, progress: work.progress).filter { query.matches($0) }
        let imported = try directory.importActions(actions, progress: work.progress)
        work.finish()
        Output.out(imported.description)
    }
}

/// Whole-file reads and writes for export and import.
enum FileTransfer {
    static func read(_ path: String) throws(JournalError) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .system(path: path, operation: "read", reason: FileManager.default.fileExists(atPath: path) ? "it cannot be read" : "No such file or directory")
        }
        return [UInt8](data)
    }

    static func readStandardInput() -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return bytes }
            bytes.append(contentsOf: chunk[..<count])
        }
    }

    /// Writes `bytes` to `path` atomically: a temporary file beside it, then a rename; on any
    /// failure the temporary file is removed, so nothing partial is left.
    static func write(_ bytes: [UInt8], to path: String) throws(JournalError) {
        try FileSystem.writeAtomically(bytes, to: path, directory: path.parentDirectory)
    }
}
