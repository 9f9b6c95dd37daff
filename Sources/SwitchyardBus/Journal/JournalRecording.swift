import Glibc

/// Recorded actions to read: a bus's data directory, its `journal` directory, or a file of
/// actions as `journal export` writes them (``ActionLines``). What `replay`, `journal diff` and
/// `journal import` read from.
///
/// A directory is read through the same checks as `journal verify` (checksums, the chain
/// between segments, the durable mark), so a damaged journal is reported with its file, line
/// and byte, never replayed in part without saying so.
public struct JournalRecording: Sendable {
    private enum Kind: Sendable {
        case journal(JournalDirectory)
        case file
    }

    /// The path as given.
    public let path: String
    private let kind: Kind

    /// The recording at `path`.
    /// - Throws: ``JournalError`` when nothing is there, or a directory holds no journal.
    public init(path: String) throws(JournalError) {
        self.path = path
        var status = stat()
        guard stat(path, &status) == 0 else { throw .system(path: path, operation: "read the recording", errno: errno) }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            kind = .file
            return
        }
        var inner = stat()
        if stat(path + "/journal", &inner) == 0, inner.st_mode & S_IFMT == S_IFDIR {
            kind = .journal(JournalDirectory(dataDirectory: path))
        } else if path.lastPathComponent == "journal" {
            kind = .journal(JournalDirectory(dataDirectory: path.parentDirectory))
        } else {
            throw .system(path: path, operation: "read the recording", reason:
                "it is a directory without a journal/ in it: name a bus's data directory, its journal directory, or a file `switchyard journal export` wrote")
        }
    }

    /// Whether the recording is a journal directory (checksummed) rather than an exported file.
    public var isJournal: Bool {
        if case .journal = kind { return true }
        return false
    }

    /// The data directory of a journal recording; `nil` for an exported file.
    public var dataDirectory: String? {
        if case .journal(let directory) = kind { return directory.dataDirectory }
        return nil
    }

    /// Hands every recorded action to `body`, oldest first, stopping early when `body` returns
    /// `false`. A file is read and checked whole before the first action is handed over.
    /// `progress` hears the bytes of a journal's segments read, as phase `reading`.
    /// - Throws: ``JournalError`` at the first damaged record or bad line.
    public func forEachAction(progress: JournalProgress? = nil, _ body: (BusAction) -> Bool) throws(JournalError) {
        switch kind {
        case .journal(let directory):
            try directory.forEachAction(progress: progress, body)
        case .file:
            for action in try ActionLines.parse(try FileSystem.read(path), file: path) where !body(action) { return }
        }
    }

    /// The recorded actions `include` keeps, in order, stopping at the first action `isPastEnd`
    /// says is beyond the range.
    /// - Throws: ``JournalError`` at the first damaged record or bad line.
    public func actions(where include: (BusAction) -> Bool, until isPastEnd: (BusAction) -> Bool = { _ in false },
                        progress: JournalProgress? = nil) throws(JournalError) -> [BusAction] {
        var kept: [BusAction] = []
        try forEachAction(progress: progress) { action in
            if isPastEnd(action) { return false }
            if include(action) { kept.append(action) }
            return true
        }
        return kept
    }
}
