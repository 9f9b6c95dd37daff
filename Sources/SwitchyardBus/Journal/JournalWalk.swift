/// Reads a run of segments in order and checks that they form one unbroken journal: each
/// segment whole and unchanged (``SegmentScanner``), each linked to the one before by sequence
/// number and checksum chain, and the journal reaching the point the durable mark says was
/// flushed (``JournalMark``). Restore, `verify`, `show` and `--repair` all read through it, so
/// they agree on what is damage.
struct JournalWalk {
    /// Where a walk starts when it does not start at the journal's first action: the snapshot
    /// whose state already includes everything before.
    struct Start: Sendable, Hashable {
        /// The snapshot's sequence number.
        var sequence: UInt64
        /// The journal's chain checksum at that action; `nil` for a snapshot written before
        /// checksums existed.
        var chain: UInt32?
    }

    /// What a walk found.
    struct Outcome: Sendable {
        /// Segments read and whole actions in them.
        var segments = 0
        var actions = 0
        var bytes = 0
        /// The first action read, and the last sequence number the journal accounts for.
        var firstSequence: UInt64?
        var lastSequence: UInt64?
        /// The chain checksum after the last whole line, where appending continues.
        var chain: UInt32 = 0
        /// The newest segment read, its whole length and the summary of its scan.
        var newest: (segment: JournalLayout.Segment, summary: SegmentScanner.Summary)?
        /// Ranges of actions missing between segments whose effect a snapshot holds.
        var coveredGaps: [ClosedRange<UInt64>] = []
        /// Ranges of ids a repair skipped (``JournalSegmentHeader/after``).
        var skipped: [ClosedRange<UInt64>] = []
    }

    let layout: JournalLayout
    let segments: [JournalLayout.Segment]
    /// The sequence numbers and chains of the snapshots present, for gaps they cover.
    let snapshots: [UInt64: UInt32?]
    let mark: JournalMark?
    /// Whether a journal with checksummed segments must have a mark (a repair rebuilding the
    /// mark walks without one).
    var requireMark = true
    /// Reads a segment's bytes (the file system, or memory in tests).
    let read: (JournalLayout.Segment) throws(JournalError) -> [UInt8]
    /// Hears the bytes read of the segments walked, under the phase's name.
    var progress: (JournalProgress, phase: String)?

    /// Walks `segments[from...]`, handing every action to `body`.
    /// - Throws: ``JournalError`` at the first damage, naming file, line and byte.
    func walk(from index: Int, start: Start?, _ body: (BusAction) throws(JournalError) -> Void) throws(JournalError) -> Outcome {
        var outcome = Outcome()
        var previous: SegmentScanner.Summary?
        var markReached = mark == nil
        if let mark, mark.first == 0 || (index > 0 && index < segments.count && mark.first < segments[index].firstSequence) {
            // Nothing flushed with a header yet, or the mark lies in a segment before the walk.
            markReached = true
        } else if let mark, mark.sequence <= (start?.sequence ?? 0), index < segments.count, mark.first < segments[index].firstSequence {
            markReached = true
        }
        let total = progress == nil ? 0 : segments[index...].reduce(0) { $0 + FileSystem.size($1.path) }
        for position in index..<segments.count {
            let segment = segments[position]
            let isNewest = position == segments.count - 1
            let marked = mark?.first == segment.firstSequence ? mark : nil
            let bytes = try read(segment)
            var scanner = SegmentScanner(segment: segment, isNewest: isNewest, checkpoint: marked?.length)
            if let (progress, phase) = progress {
                let base = outcome.bytes
                scanner.onProgress = { progress.report(phase, done: base + $0, total: max(total, base + bytes.count), bytes: true) }
            }
            let summary = try scanner.scan(bytes, body)
            try link(segment, summary, after: previous, start: previous == nil ? start : nil, into: &outcome)
            if let marked {
                guard summary.validLength >= marked.length else {
                    throw .corrupt(file: segment.path, line: summary.count + (summary.header == nil ? 1 : 2), offset: summary.validLength,
                                   reason: "the segment ends at byte \(summary.validLength), but \(marked.length) bytes through sequence \(marked.sequence) were flushed (the durable mark says so): it was cut short or emptied")
                }
                guard summary.checkpoint == SegmentScanner.Point(sequence: marked.sequence, chain: marked.chain) else {
                    throw .corrupt(file: segment.path, line: 0, offset: marked.length,
                                   reason: "the line ending at byte \(marked.length) is not the flushed one (sequence \(marked.sequence)): the segment was replaced or rewritten")
                }
                markReached = true
            }
            if summary.header == nil, summary.validLength == 0, !markReached {
                throw .corrupt(file: segment.path, line: 1, offset: 0, reason: "the segment is empty (no header) but the journal after it was flushed")
            }
            outcome.segments += 1
            outcome.actions += summary.count
            outcome.bytes += bytes.count
            if summary.count > 0, outcome.firstSequence == nil { outcome.firstSequence = segment.firstSequence }
            if let end = summary.end { outcome.lastSequence = end }
            if summary.validLength > 0 { outcome.chain = summary.chain }
            outcome.newest = (segment, summary)
            if summary.validLength > 0 || summary.tornLength > 0 { previous = summary }
        }
        if let mark, !markReached {
            throw .corrupt(file: layout.segmentPath(firstSequence: mark.first), line: 0, offset: 0,
                           reason: "the segment is missing: \(mark.length) bytes of it through sequence \(mark.sequence) were flushed (the durable mark \(layout.markPath) says so)")
        }
        if mark == nil, requireMark, let newest = outcome.newest, newest.summary.header != nil {
            throw .corrupt(file: layout.markPath, line: 0, offset: 0, reason: "the durable mark is missing, so the journal's flushed end cannot be checked")
        }
        return outcome
    }

    /// Checks that `summary` continues the journal: after the previous segment, or after the
    /// snapshot the walk started from.
    private func link(_ segment: JournalLayout.Segment, _ summary: SegmentScanner.Summary, after previous: SegmentScanner.Summary?,
                      start: Start?, into outcome: inout Outcome) throws(JournalError) {
        guard let previous else {
            if let header = summary.header {
                if header.after == 0, header.previous != 0 {
                    throw .corrupt(file: segment.path, line: 1, offset: 0, reason: "the first segment's header names a previous checksum")
                }
                if let start, header.after == start.sequence, let chain = start.chain, chain != header.previous {
                    throw .corrupt(file: segment.path, line: 1, offset: 0,
                                   reason: "the header does not continue snapshot \(start.sequence) (checksum \(hex(header.previous)), the snapshot says \(hex(chain)))")
                }
                if header.first > header.after + 1 { outcome.skipped.append((header.after + 1)...(header.first - 1)) }
            }
            return
        }
        let previousEnd = previous.end ?? (segment.firstSequence &- 1)
        guard let header = summary.header else {
            if summary.validLength > 0, !previous.isLegacy {
                throw .corrupt(file: segment.path, line: 1, offset: 0, reason: "a segment without checksums follows one with checksums")
            }
            if summary.validLength > 0, segment.firstSequence != previousEnd + 1 {
                try gap(segment, expected: previousEnd + 1, found: segment.firstSequence, chain: nil, into: &outcome)
            }
            return
        }
        if header.after != previousEnd {
            try gap(segment, expected: previousEnd + 1, found: header.after + 1, chain: header.previous, into: &outcome)
        } else if !previous.isLegacy, header.previous != previous.chain {
            throw .corrupt(file: segment.path, line: 1, offset: 0,
                           reason: "the header does not continue the segment before it (checksum \(hex(header.previous)), that segment ends with \(hex(previous.chain))): a segment is missing, swapped or rewritten")
        }
        if header.first > header.after + 1 { outcome.skipped.append((header.after + 1)...(header.first - 1)) }
    }

    /// Actions `expected..<found` are missing: damage unless a snapshot at `found - 1` holds
    /// their effect (a machine crash under `fsync: never` can lose them after the snapshot).
    private func gap(_ segment: JournalLayout.Segment, expected: UInt64, found: UInt64, chain: UInt32?, into outcome: inout Outcome) throws(JournalError) {
        guard found > expected, let snapshotChain = snapshots[found - 1], chain == nil || snapshotChain == nil || snapshotChain == chain else {
            throw .sequenceGap(file: segment.path, line: 1, offset: 0, expected: expected, found: found)
        }
        outcome.coveredGaps.append(expected...(found - 1))
    }

    private func hex(_ crc: UInt32) -> String {
        var bytes: [UInt8] = []
        CRC32C.hex(crc, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
