import Glibc

/// Checks the part of a journal a restore does not read: the segments behind the snapshot it
/// started from (up to and including the first segment it read, so their link to it is
/// checked too) and the snapshots older than that one.
///
/// A restore reads only what follows its snapshot, so damage further back (a flipped bit in a
/// segment kept for `replay` or `export`) would stay silent until someone runs `journal
/// verify`. The bus runs this after it is ready, on a thread of its own, so readiness never
/// waits for it; it reads what a running bus no longer writes, with the same checks as
/// `verify`.
struct OlderJournalCheck: Sendable {
    /// What the check found.
    enum Outcome: Sendable {
        /// Every older segment and snapshot is whole: how many segments and snapshots were read.
        case sound(segments: Int, snapshots: Int)
        /// The first damage found.
        case damaged(JournalError)
        /// A file went away while it was read (a snapshot replaced, `journal compact`): nothing
        /// can be said, and nothing is reported as damage.
        case inconclusive(String)
    }

    let layout: JournalLayout
    /// The snapshot the restore started from.
    let snapshotSequence: UInt64
    /// The first sequence of the oldest segment the restore read.
    let firstReadSegment: UInt64

    /// The check a restore leaves to do; `nil` when it read the whole journal (no snapshot, or
    /// nothing behind it).
    init?(layout: JournalLayout, restored: JournalRestore.Outcome) {
        guard let snapshot = restored.snapshotSequence, let first = restored.firstReadSegment else { return nil }
        self.layout = layout
        snapshotSequence = snapshot
        firstReadSegment = first
    }

    /// Reads the older segments and snapshots as they are on disk now.
    func run() -> Outcome {
        do throws(JournalError) {
            let (segments, snapshots) = try layout.list()
            var chains: [UInt64: UInt32?] = [:]
            var snapshotsRead = 0
            for snapshot in snapshots where snapshot.sequence < snapshotSequence {
                chains[snapshot.sequence] = try JournalSnapshot.read(snapshot).chain
                snapshotsRead += 1
            }
            let older = segments.filter { $0.firstSequence <= firstReadSegment }
            guard older.count > 1 || snapshotsRead > 0 else { return .sound(segments: 0, snapshots: 0) }
            var walk = JournalWalk(layout: layout, segments: older, snapshots: chains, mark: nil) { segment throws(JournalError) in
                try FileSystem.read(segment.path)
            }
            // The durable mark belongs to the newest segment, which this walk does not reach.
            walk.requireMark = false
            let outcome = try walk.walk(from: 0, start: nil) { _ in }
            return .sound(segments: outcome.segments - 1, snapshots: snapshotsRead)
        } catch {
            if let file = error.damage?.file, access(file, F_OK) != 0 { return .inconclusive("\(file) was removed while it was read") }
            if !error.isCorruption { return .inconclusive(error.description) }
            return .damaged(error)
        }
    }
}
