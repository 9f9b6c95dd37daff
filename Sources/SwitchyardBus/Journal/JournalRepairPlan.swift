/// What a repair does about one damage that verification found: keep everything before it,
/// move the rest aside. Pure: it decides from the damage and the file names only.
struct JournalRepairPlan: Sendable, Hashable {
    /// One step on disk.
    enum Step: Sendable, Hashable {
        /// Move the bytes of `path` from `offset` on into the aside directory and cut the file there.
        case cut(path: String, offset: Int)
        /// Move the whole file into the aside directory.
        case move(path: String)
    }

    var steps: [Step] = []
    /// Whether segments were cut or moved, so snapshots newer than the journal's new end go
    /// aside too.
    var shortensJournal = false

    /// The plan for `damage`, or `nil` when it is nothing a repair can fix (such as actions
    /// missing before the only snapshot).
    init?(damage: (file: String, offset: Int), layout: JournalLayout,
          segments: [JournalLayout.Segment], snapshots: [JournalLayout.Snapshot]) {
        if damage.file == layout.markPath {
            steps = [.move(path: damage.file)]
            return
        }
        if snapshots.contains(where: { $0.path == damage.file }) {
            steps = [.move(path: damage.file)]
            return
        }
        guard damage.file.hasPrefix(layout.directory + "/segment-") else { return nil }
        shortensJournal = true
        guard let index = segments.firstIndex(where: { $0.path == damage.file }) else {
            // A segment the mark names is missing: what exists is kept; only the mark is rebuilt.
            return
        }
        steps.append(damage.offset > 0 ? .cut(path: damage.file, offset: damage.offset) : .move(path: damage.file))
        steps += segments[(index + 1)...].map { .move(path: $0.path) }
    }
}
