/// A bus's journal on disk, for the `switchyard journal` tools: show, verify, compact.
///
/// Reading is safe while a bus appends (its newest line may then look torn, which is
/// tolerated). Compaction only removes files the running bus no longer reads or writes.
public struct JournalDirectory: Sendable, Hashable {
    let layout: JournalLayout
    let dataDirectory: String

    /// The journal of the bus whose data directory is `dataDirectory`.
    public init(dataDirectory: String) {
        self.dataDirectory = dataDirectory
        layout = JournalLayout(dataDirectory: dataDirectory)
    }

    /// The journal directory, `<dataDirectory>/journal`.
    public var path: String { layout.directory }

    /// Hands every journaled action to `body`, oldest first, stopping early when `body`
    /// returns `false`.
    /// - Throws: ``JournalError`` at the first damaged record, after handing over the actions
    ///   before it.
    /// `progress` hears the bytes read, as phase `reading`.
    public func forEachAction(progress: JournalProgress? = nil, _ body: (BusAction) -> Bool) throws(JournalError) {
        try forEachAction(from: 0, progress: progress, body)
    }

    /// Hands the journaled actions to `body` like ``forEachAction(_:)``, reading only the
    /// segments that may hold `firstSequence` or later (earlier actions in the first segment
    /// read are handed over too): for following a journal without reading it all again.
    /// The segments read are checked as a whole, so reading continues after `body` stops.
    public func forEachAction(from firstSequence: UInt64, progress: JournalProgress? = nil, _ body: (BusAction) -> Bool) throws(JournalError) {
        // The mark first: a running bus only moves it forward, onto segments listed after it.
        let mark = try JournalMark.read(layout)
        let segments = try layout.list().segments
        var first = 0
        while first + 1 < segments.count, segments[first + 1].firstSequence <= firstSequence { first += 1 }
        var stopped = false
        _ = try walk(segments: segments, from: first, snapshots: [:], mark: mark, progress: progress.map { ($0, "reading") }) { action in
            guard !stopped else { return }
            stopped = !body(action)
        }
    }

    /// Reads every segment, snapshot and the durable mark and checks that the journal is one
    /// unbroken, unchanged chain reaching the point the mark says was flushed.
    ///
    /// A gap between two segments is accepted only where a snapshot holds the missing
    /// actions' effect (after a machine crash under `fsync: never`).
    /// - Throws: ``JournalError`` naming the file, line and byte offset of the first problem;
    ///   ``repair()`` moves it and everything after it aside.
    /// - Parameter progress: Hears the bytes of segments read, as phase `verifying`.
    public func verify(progress: JournalProgress? = nil) throws(JournalError) -> JournalVerification {
        let mark = try JournalMark.read(layout)
        let (segments, snapshots) = try layout.list()
        var chains: [UInt64: UInt32?] = [:]
        for snapshot in snapshots {
            let read = try JournalSnapshot.read(snapshot)
            chains[read.sequence] = read.chain
        }
        if let latest = snapshots.last, let first = segments.indices.first(where: { index in
            index == segments.count - 1 || segments[index + 1].firstSequence > latest.sequence + 1
        }), segments[first].firstSequence > latest.sequence + 1 {
            throw .missingActions(after: latest.sequence, firstAvailable: segments[first].firstSequence)
        }
        let outcome = try walk(segments: segments, snapshots: chains, mark: mark, progress: progress.map { ($0, "verifying") }) { _ in }
        var report = JournalVerification(directory: path, snapshots: snapshots.map(\.sequence))
        report.segments = outcome.segments
        report.actions = outcome.actions
        report.firstSequence = outcome.firstSequence
        report.lastSequence = outcome.actions > 0 || outcome.lastSequence != nil ? outcome.lastSequence : nil
        report.tornLength = outcome.newest?.summary.tornLength ?? 0
        report.coveredGaps = outcome.coveredGaps
        report.skipped = outcome.skipped
        report.bytes = outcome.bytes + snapshots.reduce(0) { $0 + FileSystem.size($1.path) }
        return report
    }

    func walk(segments: [JournalLayout.Segment], from first: Int = 0, snapshots: [UInt64: UInt32?], mark: JournalMark?,
              progress: (JournalProgress, phase: String)? = nil,
              _ body: (BusAction) throws(JournalError) -> Void) throws(JournalError) -> JournalWalk.Outcome {
        var walker = JournalWalk(layout: layout, segments: segments, snapshots: snapshots, mark: mark) { segment throws(JournalError) in
            try FileSystem.read(segment.path)
        }
        walker.progress = progress
        return try walker.walk(from: first, start: nil, body)
    }

    /// Removes what the latest snapshot makes unnecessary for a restore: older snapshots and
    /// the segments whose every action it includes. The newest segment is always kept.
    /// - Throws: ``JournalError`` when the latest snapshot cannot be read (then nothing is
    ///   removed) or a file cannot be removed.
    public func compact() throws(JournalError) -> JournalCompaction {
        let (segments, snapshots) = try layout.list()
        var result = JournalCompaction()
        guard let latest = snapshots.last else { return result }
        let snapshot = try JournalSnapshot.read(latest)
        result.snapshotSequence = snapshot.sequence
        for (index, segment) in segments.enumerated().dropLast() where segments[index + 1].firstSequence <= snapshot.sequence + 1 {
            result.freedBytes += FileSystem.size(segment.path)
            try FileSystem.remove(segment.path)
            result.removedSegments += 1
        }
        for older in snapshots.dropLast() {
            result.freedBytes += FileSystem.size(older.path)
            try FileSystem.remove(older.path)
            result.removedSnapshots += 1
        }
        return result
    }
}

/// What ``JournalDirectory/verify()`` found in a sound journal.
public struct JournalVerification: Sendable, Hashable, CustomStringConvertible {
    /// The journal directory.
    public var directory: String
    /// Segment files read.
    public var segments = 0
    /// Whole actions in them.
    public var actions = 0
    /// The first and last sequence numbers present; `nil` for an empty journal.
    public var firstSequence: UInt64?
    /// The last sequence number present.
    public var lastSequence: UInt64?
    /// The sequence numbers of the snapshots, oldest first; each was read back.
    public var snapshots: [UInt64]
    /// The length of a torn last line in the newest segment (tolerated); 0 when there is none.
    public var tornLength = 0
    /// Ranges of actions missing from the segments whose effect a snapshot holds.
    public var coveredGaps: [ClosedRange<UInt64>] = []
    /// Ranges of ids a repair skipped, so ids moved aside are never given out again.
    public var skipped: [ClosedRange<UInt64>] = []
    /// The bytes of every segment and snapshot.
    public var bytes = 0

    /// `ok: 3 segments, 25000 actions (1-25000), snapshots at 10000, 20000, 1.2 MB`, with notes.
    public var description: String {
        var text = "ok: \(directory): \(segments) segment\(segments == 1 ? "" : "s"), \(actions) action\(actions == 1 ? "" : "s")"
        if let firstSequence, let lastSequence { text += " (\(firstSequence)-\(lastSequence))" }
        text += snapshots.isEmpty ? ", no snapshot" : ", snapshot\(snapshots.count == 1 ? "" : "s") at " + snapshots.map(String.init).joined(separator: ", ")
        text += ", \(ByteCount.text(bytes))"
        if tornLength > 0 { text += "\nnote: a torn last line of \(tornLength) bytes ends the newest segment (an append cut short after the last flush, so never acknowledged as durable; the bus drops it on start)" }
        for range in skipped {
            text += "\nnote: ids \(range.lowerBound)-\(range.upperBound) were skipped after a repair moved actions aside; they are never given out again"
        }
        for gap in coveredGaps {
            text += "\nnote: actions \(gap.lowerBound)-\(gap.upperBound) are missing from the segments; snapshot \(gap.upperBound) holds their effect"
        }
        return text
    }
}

/// What ``JournalDirectory/compact()`` removed.
public struct JournalCompaction: Sendable, Hashable, CustomStringConvertible {
    /// The snapshot everything removed is included in; `nil` when there is none (nothing is removed).
    public var snapshotSequence: UInt64?
    /// Segment files removed.
    public var removedSegments = 0
    /// Snapshot files removed.
    public var removedSnapshots = 0
    /// The bytes they held.
    public var freedBytes = 0

    /// `removed 4 segments and 1 snapshot (12.3 MB); restores start from snapshot 40000`.
    public var description: String {
        guard let snapshotSequence else { return "nothing to compact: the journal has no snapshot yet" }
        return "removed \(removedSegments) segment\(removedSegments == 1 ? "" : "s") and \(removedSnapshots) snapshot\(removedSnapshots == 1 ? "" : "s") (\(ByteCount.text(freedBytes))); restores start from snapshot \(snapshotSequence)"
    }
}

/// Byte counts for people: `512 B`, `12.3 KB`, `4.0 MB`.
public enum ByteCount {
    /// `bytes` in B, KB, MB or GB (powers of 1024), one decimal above bytes.
    public static func text(_ bytes: Int) -> String {
        let units = ["KB", "MB", "GB", "TB"]
        guard bytes >= 1024 else { return "\(bytes) B" }
        var value = Double(bytes) / 1024
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return "\((value * 10).rounded() / 10) \(units[unit])"
    }
}
