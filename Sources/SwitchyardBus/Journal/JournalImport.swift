/// What ``JournalDirectory/importActions(_:)`` appended.
public struct JournalImport: Sendable, Hashable, CustomStringConvertible {
    /// The journal directory written to.
    public var directory: String
    /// Actions appended.
    public var count = 0
    /// Actions the input held; more than ``count`` when the import was interrupted.
    public var offered = 0
    /// The ids the imported actions had and the ids they have now; `nil` when nothing was
    /// imported.
    public var recordedIDs: ClosedRange<UInt64>?
    public var journalIDs: ClosedRange<UInt64>?

    /// `imported 120 actions (recorded ids 500-619) as ids 1-120 into .switchyard/x/journal`.
    /// Whether an interrupt stopped the import before every action was appended: what was
    /// appended is the input's first ``count`` actions, whole and flushed.
    public var interrupted: Bool { count < offered }

    /// `imported 120 actions (recorded ids 500-619) as ids 1-120 into .switchyard/x/journal`;
    /// after an interrupt `interrupted: imported the first 4096 of 300000 actions (…) …`.
    public var description: String {
        guard let recordedIDs, let journalIDs else {
            return interrupted ? "interrupted: nothing imported of \(offered) actions" : "nothing to import: the input holds no actions"
        }
        let ids = "(recorded ids \(recordedIDs.lowerBound)-\(recordedIDs.upperBound)) as ids \(journalIDs.lowerBound)-\(journalIDs.upperBound) into \(directory)"
        guard interrupted else { return "imported \(count) action\(count == 1 ? "" : "s") \(ids)" }
        return "interrupted: imported the first \(count) of \(offered) actions \(ids); they are whole and flushed, the rest was not imported"
    }
}

extension JournalDirectory {
    /// The most actions appended in one write.
    static let importBatch = 4096

    /// Appends recorded actions to this journal, with the guarantees of a bus's own appends:
    /// checksummed, chained to the journal before, and flushed before this returns.
    ///
    /// The actions get the ids that continue the journal (after every id it ever gave out,
    /// so no id is reused); a `cause` naming an imported action follows it to its new id, and
    /// one naming an action outside the import becomes `null`. Type, payload, source and time
    /// are kept. The data directory's lock is held throughout, so no bus can start on it
    /// meanwhile.
    ///
    /// `progress` hears the journal's restore (phase `restoring`) and the actions appended
    /// (phase `importing`); once it is interrupted while writing, the import stops after the
    /// batch being written, flushes, and reports how many actions it appended (an in-order
    /// prefix of `actions`). Interrupted before writing, it writes nothing.
    /// - Throws: ``JournalError`` when a bus holds the data directory (nothing is written), the
    ///   journal is damaged (nothing is written), or a write fails (the batch being written is
    ///   cut back; earlier batches stay, and the error says how many).
    public func importActions(_ actions: [BusAction], progress: JournalProgress? = nil) throws(JournalError) -> JournalImport {
        let lock = try DataDirectoryLock(dataDirectory: dataDirectory)
        defer { withExtendedLifetime(lock) {} }
        try FileSystem.makeDirectories(layout.directory)
        let restored = try JournalRestore(layout: layout).restore(initialState: .null, adopt: { $0 }, reduce: { _, _ in }, progress: progress)
        var result = JournalImport(directory: path, offered: actions.count)
        guard let first = actions.first, progress?.beginWriting() ?? true else { return result }
        let base = restored.nextSequence - 1
        var renumbered: [UInt64: UInt64] = [:]
        renumbered.reserveCapacity(actions.count)
        let moved = actions.enumerated().map { offset, action in
            var action = action
            let id = base + UInt64(offset) + 1
            renumbered[action.id] = id
            action.cause = action.cause.flatMap { renumbered[$0] }
            action.id = id
            return action
        }
        let writer = try JournalWriter(layout: layout, restored: restored, settings: JournalSettings(fsync: .interval, snapshotEvery: .max))
        var written = 0
        do throws(JournalError) {
            while written < moved.count, progress?.isInterrupted != true {
                let batch = Array(moved[written..<min(moved.count, written + Self.importBatch)])
                try writer.append(batch)
                written += batch.count
                progress?.report("importing", done: written, total: moved.count, bytes: false)
            }
            try writer.flush()
            try writer.close()
        } catch {
            try? writer.close()
            guard written > 0 else { throw error }
            throw .system(path: path, operation: "import into", reason:
                "\(error) (the first \(written) of \(moved.count) actions, ids \(base + 1)-\(base + UInt64(written)), were written and stay: they are whole and checksummed)")
        }
        result.count = written
        guard written > 0 else { return result }
        result.recordedIDs = first.id...actions[written - 1].id
        result.journalIDs = (base + 1)...(base + UInt64(written))
        return result
    }
}
