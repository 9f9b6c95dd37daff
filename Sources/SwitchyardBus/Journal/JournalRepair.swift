import FoundationEssentials
import Glibc

extension JournalDirectory {
    /// Repairs a damaged journal without deleting anything: keeps every record before the
    /// first damage and moves the damaged record and everything after it (later segments,
    /// newer snapshots, a damaged mark) into `journal/damaged-<time>/`, then rebuilds the
    /// durable mark at the new end. The highest id ever given out is kept in the mark, so the
    /// ids of moved actions are never given out again (``JournalVerification/skipped``).
    ///
    /// Takes the data directory's lock, so it refuses while a bus runs.
    /// - Throws: ``JournalError`` when the directory is in use, a file cannot be moved, or the
    ///   damage is not one a repair can fix (then nothing more is moved).
    public func repair() throws(JournalError) -> JournalRepairReport {
        let lock = try DataDirectoryLock(dataDirectory: dataDirectory)
        defer { withExtendedLifetime(lock) {} }
        var report = JournalRepairReport()
        var reserved = Self.highestID(inMark: layout)
        var aside: String?
        for _ in 0..<64 {
            let damage: (file: String, offset: Int)
            do throws(JournalError) {
                report.verification = try verify()
                break
            } catch {
                guard let found = error.damage else { throw error }
                damage = found
                report.problems.append(error.description)
            }
            let (segments, snapshots) = try layout.list()
            guard let plan = JournalRepairPlan(damage: damage, layout: layout, segments: segments, snapshots: snapshots) else {
                throw .corrupt(file: damage.file, line: 0, offset: damage.offset, reason: "a repair cannot fix this")
            }
            let directory: String
            if let aside {
                directory = aside
            } else {
                directory = try makeAsideDirectory()
            }
            aside = directory
            for step in plan.steps {
                switch step {
                case .move(let path):
                    guard access(path, F_OK) == 0 else { continue }
                    reserved = max(reserved, Self.highestID(in: (try? FileSystem.read(path)) ?? []))
                    try move(path, into: directory, report: &report)
                case .cut(let path, let offset):
                    let bytes = try FileSystem.read(path)
                    reserved = max(reserved, Self.highestID(in: bytes[offset...]))
                    let target = directory + "/" + Self.name(of: path) + ".from-byte-\(offset)"
                    try FileSystem.writeAtomically(Array(bytes[offset...]), to: target, directory: directory)
                    let file = try OpenFile(path: path, flags: O_WRONLY)
                    try file.truncate(to: offset)
                    try file.sync()
                    report.moved.append("\(path) from byte \(offset) -> \(target)")
                }
            }
            try rebuildMark(reserved: reserved, dropNewerSnapshots: plan.shortensJournal, aside: directory, report: &report)
        }
        guard report.verification != nil else {
            throw .corrupt(file: layout.directory, line: 0, offset: 0, reason: "still damaged after 64 repair steps")
        }
        report.reserved = max(reserved, report.verification?.lastSequence ?? 0)
        return report
    }

    /// Writes the durable mark at the end of what is left, after moving the old one aside;
    /// with `dropNewerSnapshots`, first moves aside snapshots newer than that end.
    private func rebuildMark(reserved: UInt64, dropNewerSnapshots: Bool, aside: String, report: inout JournalRepairReport) throws(JournalError) {
        let (segments, snapshots) = try layout.list()
        let outcome = try JournalWalk(layout: layout, segments: segments, snapshots: [:], mark: nil, requireMark: false) { segment throws(JournalError) in
            try FileSystem.read(segment.path)
        }.walk(from: 0, start: nil) { _ in }
        let end = outcome.lastSequence ?? 0
        if dropNewerSnapshots {
            for snapshot in snapshots where snapshot.sequence > end && !segments.isEmpty {
                try move(snapshot.path, into: aside, report: &report)
            }
        }
        if access(layout.markPath, F_OK) == 0 { try move(layout.markPath, into: aside, report: &report) }
        var mark = JournalMark(first: 0, length: 0, sequence: 0, chain: 0, reserved: max(reserved, end))
        if let newest = outcome.newest {
            if newest.summary.tornLength > 0 {
                let bytes = try FileSystem.read(newest.segment.path)
                let target = aside + "/" + Self.name(of: newest.segment.path) + ".from-byte-\(newest.summary.validLength)"
                try FileSystem.writeAtomically(Array(bytes[newest.summary.validLength...]), to: target, directory: aside)
                let file = try OpenFile(path: newest.segment.path, flags: O_WRONLY)
                try file.truncate(to: newest.summary.validLength)
                try file.sync()
                report.moved.append("\(newest.segment.path) from byte \(newest.summary.validLength) -> \(target)")
            }
            if newest.summary.header != nil, let sequence = newest.summary.end {
                mark = JournalMark(first: newest.segment.firstSequence, length: newest.summary.validLength,
                                   sequence: sequence, chain: newest.summary.chain, reserved: max(reserved, sequence))
            }
        }
        let file = try OpenFile(path: layout.markPath, flags: O_RDWR | O_CREAT | O_TRUNC)
        try mark.write(to: file, sync: true)
        try FileSystem.syncDirectory(layout.directory)
    }

    private func makeAsideDirectory() throws(JournalError) -> String {
        let stamp = Timestamp.iso8601(Date()).filter { $0.isNumber }
        var path = layout.directory + "/damaged-" + stamp
        var suffix = 1
        while access(path, F_OK) == 0 {
            suffix += 1
            path = layout.directory + "/damaged-" + stamp + "-\(suffix)"
        }
        try FileSystem.makeDirectories(path)
        return path
    }

    private func move(_ path: String, into directory: String, report: inout JournalRepairReport) throws(JournalError) {
        let target = directory + "/" + Self.name(of: path)
        guard rename(path, target) == 0 else { throw .system(path: path, operation: "move to \(target)", errno: errno) }
        try FileSystem.syncDirectory(directory)
        try FileSystem.syncDirectory(layout.directory)
        report.moved.append("\(path) -> \(target)")
    }

    private static func name(of path: String) -> String {
        String(path[path.index(after: path.lastIndex(of: "/") ?? path.startIndex)...])
    }

    private static func highestID(inMark layout: JournalLayout) -> UInt64 {
        guard let bytes = try? FileSystem.read(layout.markPath), case .success(let mark) = JournalMark.decode(bytes) else { return 0 }
        return max(mark.reserved, mark.sequence)
    }

    /// The highest `"id"` of the records in `bytes`, read leniently (checksums and damage
    /// ignored): moved actions' ids stay reserved even when their lines are damaged.
    static func highestID(in bytes: some Collection<UInt8>) -> UInt64 {
        var highest: UInt64 = 0
        for line in Array(bytes).split(separator: UInt8(ascii: "\n")) {
            let body = line.first == UInt8(ascii: "{") ? line[...] : line.dropFirst(JournalRecord.prefixLength)
            guard let value = try? JSON(parsing: body, maximumDepth: JSONLimits.journalDepth) else { continue }
            if let id = value["id"]?.intValue ?? value["reserved"]?.intValue ?? value["sequence"]?.intValue, id > 0 { highest = max(highest, UInt64(id)) }
        }
        return highest
    }
}

/// What ``JournalDirectory/repair()`` found and did.
public struct JournalRepairReport: Sendable, Hashable, CustomStringConvertible {
    /// The damage found, one sentence each, in the order repaired.
    public var problems: [String] = []
    /// What was moved where (`path -> damaged-.../name`), in order.
    public var moved: [String] = []
    /// The verification of the repaired journal.
    public var verification: JournalVerification?
    /// The highest id ever given out; the bus continues after it.
    public var reserved: UInt64 = 0

    /// `nothing to repair` or the damage, the moves and the new verification.
    public var description: String {
        guard !problems.isEmpty else { return "nothing to repair: " + (verification?.description ?? "") }
        var lines = problems.map { "repaired: \($0)" }
        lines += moved.map { "moved aside: \($0)" }
        if let verification { lines.append(verification.description) }
        lines.append("the next action gets id \(reserved + 1) or later; nothing was deleted")
        return lines.joined(separator: "\n")
    }
}
