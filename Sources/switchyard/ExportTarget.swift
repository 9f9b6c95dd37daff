import FoundationEssentials
import Glibc
import SwitchyardBus

/// Where `journal export -o FILE` may write: anywhere but inside a data directory.
///
/// A data directory is written only by its bus's own writer. An export written over a segment,
/// the durable mark or `slices.json` leaves a journal `verify` rejects and a bus that will not
/// start; over a live bus's current segment it loses what was acknowledged after it; over
/// `control.sock` it cuts the clients off. So the target is resolved as the write would
/// resolve it (symbolic links and `..` of its directory followed; the name itself is replaced
/// by the rename, never followed) and refused when it is, or is inside, the data directory the
/// command reads, any bus the locator knows, or any directory holding a bus's files.
enum ExportTarget {
    /// Throws when writing `file` (and `file.tmp` beside it) would write inside a data
    /// directory: the one the command reads (`dataDirectory`), one in ``BusLocator``'s roots,
    /// or one found among the target's own parents.
    /// - Throws: ``JournalError`` naming the target and the data directory.
    static func check(_ file: String, dataDirectory: String, locator: BusLocator = BusLocator()) throws(JournalError) {
        guard let target = resolved(file) else { return }
        let named = ([dataDirectory] + locator.buses().map(\.directory)).compactMap(canonical)
        let found = named.first { target.isInside($0) } ?? ancestors(of: target).first(where: holdsBusFiles)
        guard let found else { return }
        throw .system(path: file, operation: "export to", reason: "it is inside the data directory \(found), where only the bus writes "
            + "(a file written there can break its journal or cut its clients off); choose a path outside it")
    }

    /// The absolute path a write of `path` replaces: its directory resolved, its name kept (the
    /// rename replaces a symbolic link rather than follow it); `nil` when the directory does not
    /// exist (nothing can be written there).
    static func resolved(_ path: String) -> String? {
        let name = path.lastPathComponent
        if name == "." || name == ".." || path.hasSuffix("/") { return canonical(path) }
        guard let directory = canonical(path.parentDirectory) else { return nil }
        return (directory == "/" ? "" : directory) + "/" + name
    }

    /// `path` with every symbolic link, `.` and `..` resolved; `nil` when it does not exist.
    static func canonical(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// `path` and each directory above it, up to (not including) `/`.
    private static func ancestors(of path: String) -> [String] {
        var found: [String] = []
        var current = path
        while current != "/", current != "." {
            found.append(current)
            current = current.parentDirectory
        }
        return found
    }

    /// Whether `directory` holds what only a bus writes: its lock, its control socket or a
    /// journal with its durable mark. Stricter than ``BusLocator/isDataDirectory(_:)``, so an
    /// ordinary folder that merely has a `journal` in it stays a valid target.
    private static func holdsBusFiles(_ directory: String) -> Bool {
        ["bus.lock", "control.sock", "journal/durable"].contains { access(directory + "/" + $0, F_OK) == 0 }
    }
}

extension String {
    /// Whether this absolute path is `directory` or inside it.
    fileprivate func isInside(_ directory: String) -> Bool {
        self == directory || hasPrefix(directory == "/" ? "/" : directory + "/")
    }
}
