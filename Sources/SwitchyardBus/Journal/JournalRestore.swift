/// Rebuilds the bus state from a journal: the latest snapshot, then every later action fed
/// through the reducer only (no plugin sees a replayed action, so no side effect repeats).
struct JournalRestore {
    /// What a restore found.
    struct Outcome: Sendable {
        /// The state after the last journaled action.
        var state: JSON
        /// The sequence number of the last journaled action; 0 for an empty journal.
        var lastSequence: UInt64
        /// The snapshot restored from, if any.
        var snapshotSequence: UInt64?
        /// Actions replayed after the snapshot.
        var replayed = 0
        /// The newest segment and the length of its whole lines, where appending resumes.
        var newestSegment: (segment: JournalLayout.Segment, validLength: Int)?
        /// The sequence number the newest segment accounts for through, if any.
        var newestLastSequence: UInt64?
        /// Whether the newest segment is of version 1 (no checksums), so appending starts a new one.
        var newestIsLegacy = false
        /// The length of a torn last line in the newest segment; 0 when there is none.
        var tornLength = 0
        /// The chain checksum at ``lastSequence``, which the next line continues.
        var chain: UInt32 = 0
        /// The durable mark, if the journal has one.
        var mark: JournalMark?
        /// The first sequence of the oldest segment the restore read; the segments before it
        /// (behind the snapshot) were not read. `nil` when it read none.
        var firstReadSegment: UInt64?

        /// The sequence number of the next action: after the last journaled one and after every
        /// id ever given out (a repair that moved actions aside keeps their ids reserved).
        var nextSequence: UInt64 { max(lastSequence, mark?.reserved ?? 0) + 1 }
    }

    let layout: JournalLayout

    /// Restores the state.
    ///
    /// - Parameters:
    ///   - initialState: The state of an empty journal.
    ///   - adopt: Turns a snapshot's state into the starting state (the bus keeps only the
    ///     slices of plugins it still has and adds new ones).
    ///   - reduce: The bus reducer.
    ///   - progress: Hears the bytes read, as phase `restoring`.
    /// - Throws: ``JournalError`` for a corrupt snapshot, segment or mark, a gap in the
    ///   sequence or the chain, missing actions after the snapshot, or a journal that ends
    ///   before the point its mark says was flushed.
    func restore(
        initialState: JSON,
        adopt: (JSON) -> JSON,
        reduce: (inout JSON, BusAction) -> Void,
        progress: JournalProgress? = nil
    ) throws(JournalError) -> Outcome {
        let (segments, snapshots) = try layout.list()
        var outcome = Outcome(state: initialState, lastSequence: 0)
        outcome.mark = try JournalMark.read(layout)
        var start: JournalWalk.Start?
        var snapshotChains: [UInt64: UInt32?] = [:]
        if let latest = snapshots.last {
            let snapshot = try JournalSnapshot.read(latest)
            outcome.state = adopt(snapshot.state)
            outcome.snapshotSequence = snapshot.sequence
            outcome.lastSequence = snapshot.sequence
            outcome.chain = snapshot.chain ?? 0
            start = JournalWalk.Start(sequence: snapshot.sequence, chain: snapshot.chain)
            snapshotChains[snapshot.sequence] = snapshot.chain
        }
        let base = outcome.lastSequence
        // A segment whose successor starts at or before base + 1 holds nothing to replay.
        let first = segments.indices.first { index in
            index == segments.count - 1 || segments[index + 1].firstSequence > base + 1
        } ?? segments.count
        if first < segments.count, segments[first].firstSequence > base + 1 {
            throw .missingActions(after: base, firstAvailable: segments[first].firstSequence)
        }
        if first < segments.count { outcome.firstReadSegment = segments[first].firstSequence }
        var state = outcome.state
        var replayed = 0
        var walker = JournalWalk(layout: layout, segments: segments, snapshots: snapshotChains, mark: outcome.mark) { segment throws(JournalError) in
            try FileSystem.read(segment.path)
        }
        walker.progress = progress.map { ($0, "restoring") }
        let walk = try walker.walk(from: first, start: start) { action throws(JournalError) in
            guard action.id > base else { return }
            reduce(&state, action)
            replayed += 1
        }
        outcome.state = state
        outcome.replayed = replayed
        if let last = walk.lastSequence, last >= outcome.lastSequence {
            outcome.lastSequence = last
            outcome.chain = walk.chain
        }
        if let newest = walk.newest {
            outcome.newestSegment = (newest.segment, newest.summary.validLength)
            outcome.newestLastSequence = newest.summary.end
            outcome.newestIsLegacy = newest.summary.isLegacy
            outcome.tornLength = newest.summary.tornLength
        }
        return outcome
    }
}
