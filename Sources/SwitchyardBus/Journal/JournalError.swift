import Glibc

/// Why a journal or its data directory cannot be used.
///
/// A corrupt journal is never skipped: the error names the file, the line and the byte offset
/// of the first bad record, so it can be inspected (`switchyard journal verify`) and repaired
/// by hand. Only a torn last line, an append cut short by a crash, is tolerated.
public struct JournalError: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Code: Sendable, Hashable {
        case corrupt(file: String, line: Int, offset: Int, reason: String)
        case sequenceGap(file: String, line: Int, offset: Int, expected: UInt64, found: UInt64)
        case missingActions(after: UInt64, firstAvailable: UInt64?)
        case corruptSnapshot(file: String, reason: String)
        case system(path: String, operation: String, reason: String)
        case inUse(dataDirectory: String, owner: String)
        case slicesChanged(dataDirectory: String, journal: [String], bus: [String])
    }

    private let code: Code

    private init(_ code: Code) {
        self.code = code
    }

    /// A record that is not a journaled action: bad JSON, a missing field, a torn line that is
    /// not the last one.
    static func corrupt(file: String, line: Int, offset: Int, reason: String) -> JournalError {
        JournalError(.corrupt(file: file, line: line, offset: offset, reason: reason))
    }

    /// A record whose sequence number does not follow the previous one.
    static func sequenceGap(file: String, line: Int, offset: Int, expected: UInt64, found: UInt64) -> JournalError {
        JournalError(.sequenceGap(file: file, line: line, offset: offset, expected: expected, found: found))
    }

    /// The journal does not hold the actions that follow the latest snapshot.
    static func missingActions(after sequence: UInt64, firstAvailable: UInt64?) -> JournalError {
        JournalError(.missingActions(after: sequence, firstAvailable: firstAvailable))
    }

    /// A snapshot file that cannot be read back.
    static func corruptSnapshot(file: String, reason: String) -> JournalError {
        JournalError(.corruptSnapshot(file: file, reason: reason))
    }

    /// A system call failed on `path`; the reason gives the system's words, the errno's name
    /// and number (`No space left on device (ENOSPC, errno 28)`).
    static func system(path: String, operation: String, errno code: Int32) -> JournalError {
        let name = errnoNames[code].map { "\($0), " } ?? ""
        return JournalError(.system(path: path, operation: operation, reason: "\(SystemError.text(code)) (\(name)errno \(code))"))
    }

    /// The names of the errors a journal's file operations meet, for log lines people search for.
    private static let errnoNames: [Int32: String] = [
        ENOSPC: "ENOSPC", EDQUOT: "EDQUOT", EIO: "EIO", EROFS: "EROFS", EACCES: "EACCES", EPERM: "EPERM",
        ENOENT: "ENOENT", EEXIST: "EEXIST", EFBIG: "EFBIG", ENOTDIR: "ENOTDIR", EISDIR: "EISDIR",
        ELOOP: "ELOOP", EMFILE: "EMFILE", ENFILE: "ENFILE", EBADF: "EBADF", EINVAL: "EINVAL",
    ]

    /// A system operation failed on `path` for a reason given in words: "cannot OPERATION PATH: REASON".
    public static func system(path: String, operation: String, reason: String) -> JournalError {
        JournalError(.system(path: path, operation: operation, reason: reason))
    }

    /// Another live bus holds the data directory.
    static func inUse(dataDirectory: String, owner: String) -> JournalError {
        JournalError(.inUse(dataDirectory: dataDirectory, owner: owner))
    }

    /// The journal in `dataDirectory` was written by a bus with the slices `journal`; this bus
    /// has the slices `bus`. See ``SliceManifest``.
    static func slicesChanged(dataDirectory: String, journal: [String], bus: [String]) -> JournalError {
        JournalError(.slicesChanged(dataDirectory: dataDirectory, journal: journal, bus: bus))
    }

    /// Whether the error reports damaged journal contents (as opposed to a system failure or a
    /// directory in use).
    public var isCorruption: Bool {
        switch code {
        case .corrupt, .sequenceGap, .missingActions, .corruptSnapshot: return true
        case .system, .inUse, .slicesChanged: return false
        }
    }

    /// Where the damage is: the file and the byte offset of the first bad record (0 for a
    /// whole file: a snapshot, a header, a missing segment); `nil` for other errors.
    var damage: (file: String, offset: Int)? {
        switch code {
        case .corrupt(let file, _, let offset, _), .sequenceGap(let file, _, let offset, _, _): return (file, offset)
        case .corruptSnapshot(let file, _): return (file, 0)
        case .missingActions, .system, .inUse, .slicesChanged: return nil
        }
    }

    /// Whether another live bus holds the data directory.
    public var isInUse: Bool {
        if case .inUse = code { return true }
        return false
    }

    /// What went wrong, in one sentence that names the file, path or plugin concerned.
    public var description: String {
        switch code {
        case .corrupt(let file, let line, let offset, let reason):
            return "journal is corrupt: \(file): \(line > 0 ? "line \(line) (byte \(offset))" : "byte \(offset)"): \(reason)"
        case .sequenceGap(let file, let line, let offset, let expected, let found):
            return "journal is corrupt: \(file): line \(line) (byte \(offset)): expected sequence \(expected), found \(found)"
        case .missingActions(let after, let firstAvailable):
            let available = firstAvailable.map { "the journal resumes at \($0)" } ?? "the journal holds no later actions"
            return "journal is incomplete: the actions after sequence \(after) are missing (\(available))"
        case .corruptSnapshot(let file, let reason):
            return "journal snapshot is corrupt: \(file): \(reason)"
        case .system(let path, let operation, let reason):
            return "cannot \(operation) \(path): \(reason)"
        case .inUse(let dataDirectory, let owner):
            return "the data directory \(dataDirectory) is in use by another bus (\(owner)); stop it first or choose another dataDirectory"
        case .slicesChanged(let dataDirectory, let journal, let bus):
            func list(_ names: [String]) -> String { names.isEmpty ? "none" : names.joined(separator: ", ") }
            let dropped = journal.filter { !bus.contains($0) }
            let added = bus.filter { !journal.contains($0) }
            var consequence: [String] = []
            if !dropped.isEmpty { consequence.append("drop the state of \(list(dropped))") }
            if !added.isEmpty { consequence.append("start \(list(added)) empty") }
            return "the journal in \(dataDirectory) was written by a bus with the slices \(list(journal)); this bus has "
                + "\(list(bus)). Restoring it would \(consequence.joined(separator: " and ")). Is the configuration pointed at "
                + "another bus's data? Choose another dataDirectory, or run once with --accept-slice-changes to restore it anyway"
        }
    }
}
