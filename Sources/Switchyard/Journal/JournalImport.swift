/// What ``JournalDirectory/importActions(_:)`` appended.
public struct JournalImport: Sendable, Hashable, CustomStringConvertible {
    /// The journal directory written to.
    public var directory: String
    /// Actions appended.
    public var count = 0
    /// The ids the imported actions had and the ids they have now; `nil` when nothing was
    /// imported.
    public var recordedIDs: ClosedRange<UInt64>?
    public var journalIDs: ClosedRange<UInt64>?

    /// `imported 120 actions (recorded ids 500-619) as ids 1-120 into .switchyard/x/journal`.
    public var description: String {
        guard let recordedIDs, let journalIDs else { return "nothing to import: the input holds no actions" }
        return "imported \(count) action\(count == 1 ? "" : "s") (recorded ids \(recordedIDs.lowerBound)-\(recordedIDs.upperBound)) as ids \(journalIDs.lowerBound)-\(journalIDs.upperBound) into \(directory)"
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
    /// - Throws: ``JournalError`` when a bus holds the data directory (nothing is written), the
    ///   journal is damaged (nothing is written), or a write fails (the batch being written is
    ///   cut back; earlier batches stay, and the error says how many).
    public func importActions(_ actions: [BusAction]) throws(JournalError) -> JournalImport {
        let lock = try DataDirectoryLock(dataDirectory: dataDirectory)
        defer { withExtendedLifetime(lock) {} }
        try FileSystem.makeDirectories(layout.directory)
        let restored = try JournalRestore(layout: layout).restore(initialState: .null, adopt: { $0 }, reduce: { _, _ in })
        var result = JournalImport(directory: path)
        guard let first = actions.first, let last = actions.last else { return result }
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
            while written < moved.count {
                let batch = Array(moved[written..<min(moved.count, written + Self.importBatch)])
                try writer.append(batch)
                written += batch.count
            }
            try writer.flush()
            try writer.close()
        } catch {
            try? writer.close()
            guard written > 0 else { throw error }
            throw .system(path: path, operation: "import into", reason:
                "\(error) (the first \(written) of \(moved.count) actions, ids \(base + 1)-\(base + UInt64(written)), were written and stay: they are whole and checksummed)")
        }
        result.count = moved.count
        result.recordedIDs = first.id...last.id
        result.journalIDs = (base + 1)...(base + UInt64(moved.count))
        return result
    }
}
