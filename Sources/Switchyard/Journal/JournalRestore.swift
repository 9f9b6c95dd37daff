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
        /// The sequence number of the newest segment's last action, if it has one.
        var newestLastSequence: UInt64?
        /// The length of a torn last line in the newest segment; 0 when there is none.
        var tornLength = 0
    }

    let layout: JournalLayout

    /// Restores the state.
    ///
    /// - Parameters:
    ///   - initialState: The state of an empty journal.
    ///   - adopt: Turns a snapshot's state into the starting state (the bus keeps only the
    ///     slices of plugins it still has and adds new ones).
    ///   - reduce: The bus reducer.
    /// - Throws: ``JournalError`` for a corrupt snapshot or segment, a gap in the sequence, or
    ///   missing actions after the snapshot.
    func restore(
        initialState: JSON,
        adopt: (JSON) -> JSON,
        reduce: (inout JSON, BusAction) -> Void
    ) throws(JournalError) -> Outcome {
        let (segments, snapshots) = try layout.list()
        var outcome = Outcome(state: initialState, lastSequence: 0)
        if let latest = snapshots.last {
            let snapshot = try JournalSnapshot.read(latest)
            outcome.state = adopt(snapshot.state)
            outcome.snapshotSequence = snapshot.sequence
            outcome.lastSequence = snapshot.sequence
        }
        let base = outcome.lastSequence
        // A segment whose successor starts at or before base + 1 holds nothing to replay.
        let relevant = segments.indices.filter { index in
            index == segments.count - 1 || segments[index + 1].firstSequence > base + 1
        }
        guard let first = relevant.first else { return outcome }
        guard segments[first].firstSequence <= base + 1 else {
            throw .missingActions(after: base, firstAvailable: segments[first].firstSequence)
        }
        var expectedFirst: UInt64?
        for index in relevant {
            let segment = segments[index]
            if let expectedFirst, segment.firstSequence != expectedFirst {
                throw .sequenceGap(file: segment.path, line: 1, offset: 0, expected: expectedFirst, found: segment.firstSequence)
            }
            let isNewest = index == segments.count - 1
            let bytes = try FileSystem.read(segment.path)
            var state = outcome.state
            var replayed = 0
            let summary = try SegmentScanner(segment: segment, isNewest: isNewest).scan(bytes) { action throws(JournalError) in
                guard action.id > base else { return }
                reduce(&state, action)
                replayed += 1
            }
            outcome.state = state
            outcome.replayed += replayed
            if let last = summary.lastSequence { outcome.lastSequence = max(outcome.lastSequence, last) }
            expectedFirst = (summary.lastSequence ?? segment.firstSequence &- 1) &+ 1
            if isNewest {
                outcome.newestSegment = (segment, summary.validLength)
                outcome.newestLastSequence = summary.lastSequence
                outcome.tornLength = summary.tornLength
            }
        }
        return outcome
    }
}
