import Glibc
import Synchronization

/// Appends reduced batches to the newest segment: one `write` and, with the `always` policy,
/// one `fdatasync` of the segment per append (``JournalCommitter`` makes one append of every
/// batch waiting). The durable mark is rewritten in place after every flush; under `always` it
/// is written with each append and flushed by the next periodic ``flush()``, so it may trail
/// the flushed segment by up to a second after a power cut — which only narrows what start-up
/// can tell apart from a torn append, never what was acknowledged.
///
/// A new segment starts when the current one would grow past ``maximumSegmentBytes``, right
/// after an action that makes a snapshot due (so a restart reads only the segments after the
/// latest snapshot), and when the newest segment predates checksums. Segments are created on
/// the first append that needs them, named after that append's first sequence number, and
/// begin with a header linking them to the journal before (``JournalSegmentHeader``). After
/// every flush the durable mark records how far the journal is on disk (``JournalMark``).
///
/// A failed write or flush is final: the segment is cut back to its last whole batch (a
/// failed batch is never left half on disk), and every later append fails with the same error.
final class JournalWriter: Sendable {
    /// The largest a segment grows before the next batch starts a new one: 64 MiB.
    static let maximumSegmentBytes = 64 << 20

    private struct State: Sendable {
        var file: OpenFile?
        var segmentFirst: UInt64 = 0
        var segmentBytes = 0
        var fsync: JournalSettings.Fsync
        var snapshotEvery: Int
        var sinceSnapshot = 0
        var rotateBeforeNextAppend = false
        var snapshotDue: (sequence: UInt64, chain: UInt32)?
        var dirty = false
        /// The mark was written since it was last flushed (under `always`).
        var markDirty = false
        /// The newest segment's directory entry is not flushed yet (under `interval`, until
        /// the next flush: see ``startSegment(first:state:)``).
        var entryDirty = false
        var buffer: [UInt8] = []
        var lastSequence: UInt64
        var chain: UInt32
        var reserved: UInt64
        var totalBytes: Int
        var segments: Int
        var failure: JournalError?
    }

    /// The durable mark's file and the last mark written, so an older position never
    /// overwrites a newer one.
    private struct MarkState: Sendable {
        var file: OpenFile
        var written: JournalMark?
        var synced = true
    }

    let layout: JournalLayout
    private let state: Mutex<State>
    private let mark: Mutex<MarkState>
    /// Held through a whole ``flush()``. Flushes come from the background thread (the
    /// periodic one, and each snapshot's) while the writer's thread appends; one that started
    /// while another was syncing must not find the data clean and write its mark ahead of
    /// that sync, so it waits, then flushes whatever is still dirty.
    private let flushing = Mutex(())

    /// Opens for appending after a restore: the newest segment is cut back to its whole
    /// lines (dropping a torn last line) and appended to.
    init(layout: JournalLayout, restored: JournalRestore.Outcome, settings: JournalSettings) throws(JournalError) {
        self.layout = layout
        let (segments, snapshots) = try layout.list()
        var file: OpenFile?
        var segmentFirst: UInt64 = 0
        var segmentBytes = 0
        var rotate = false
        if let (segment, validLength) = restored.newestSegment {
            let opened = try OpenFile(path: segment.path, flags: O_WRONLY | O_APPEND)
            if try opened.size() != validLength {
                try opened.truncate(to: validLength)
                try opened.sync()
            }
            if validLength > 0 {
                file = opened
                segmentFirst = segment.firstSequence
                segmentBytes = validLength
            }
            // After a machine crash under a lax policy a snapshot may be newer than the
            // segment's end; the next action then starts a segment of its own, as it does
            // after a segment without checksums.
            rotate = restored.newestLastSequence != restored.lastSequence || restored.newestIsLegacy
        }
        let markFile = try OpenFile(path: layout.markPath, flags: O_RDWR | O_CREAT)
        if try markFile.size() < JournalMark.size {
            // A fresh journal, or one from before marks: nothing is flushed with a header yet.
            try JournalMark(first: 0, length: 0, sequence: 0, chain: 0, reserved: restored.nextSequence - 1).write(to: markFile, sync: true)
            try FileSystem.syncDirectory(layout.directory)
        }
        mark = Mutex(MarkState(file: markFile, written: restored.mark))
        let totalBytes = segments.reduce(0) { $0 + FileSystem.size($1.path) } + snapshots.reduce(0) { $0 + FileSystem.size($1.path) }
        let sinceSnapshot = Int(clamping: restored.lastSequence - (restored.snapshotSequence ?? 0))
        state = Mutex(State(file: file, segmentFirst: segmentFirst, segmentBytes: segmentBytes, fsync: settings.fsync,
                            snapshotEvery: settings.snapshotEvery, sinceSnapshot: sinceSnapshot,
                            rotateBeforeNextAppend: rotate, lastSequence: restored.lastSequence, chain: restored.chain,
                            reserved: restored.nextSequence - 1, totalBytes: totalBytes, segments: segments.count))
    }

    /// Appends a reduced batch, whose ids continue the journal's sequence, and returns the
    /// JSON objects of its lines (see ``append(contentsOf:)``).
    /// - Throws: ``JournalError`` when the write or flush fails, or an action is nested too
    ///   deep to be read back; the journal then takes no more actions.
    @discardableResult
    func append(_ actions: [BusAction]) throws(JournalError) -> EncodedBatch? {
        try append(contentsOf: CollectionOfOne(actions))
    }

    /// Appends reduced batches with one write, in order, their ids continuing the journal's
    /// sequence, and returns the JSON objects of the lines written, one per action in order, in
    /// the buffer they were written from (`nil` for nothing written, or past 4 GiB). The
    /// objects are the lines' bodies, so they cost the writer nothing beyond noting where each
    /// lies.
    /// - Throws: ``JournalError`` when the write or flush fails, or an action is nested too
    ///   deep to be read back; the journal then takes no more actions.
    @discardableResult
    func append(contentsOf batches: some BidirectionalCollection<[BusAction]>) throws(JournalError) -> EncodedBatch? {
        guard let first = batches.first(where: { !$0.isEmpty })?.first,
              let last = batches.last(where: { !$0.isEmpty })?.last else { return nil }
        return try state.withLock { (state: inout State) throws(JournalError) -> EncodedBatch? in
            if let failure = state.failure { throw failure }
            do throws(JournalError) {
                return try append(batches, first: first.id, last: last.id, to: &state)
            } catch {
                state.failure = error
                throw error
            }
        }
    }

    private func append(
        _ batches: some BidirectionalCollection<[BusAction]>, first: UInt64, last: UInt64, to state: inout State
    ) throws(JournalError) -> EncodedBatch? {
        state.buffer.removeAll(keepingCapacity: true)
        var chain = state.chain
        var spans: [EncodedBatch.Span] = []
        var count = 0
        var times = TimestampText()
        for actions in batches {
            count += actions.count
            spans.reserveCapacity(count)
            // By index: the actions are read in place, where a `for … in` copied each one (and
            // retained its strings and payload) only to read it.
            for index in actions.indices {
                if JournalLine.isTooDeep(actions[index]) {
                    let action = actions[index]
                    throw .corrupt(file: layout.segmentPath(firstSequence: state.segmentFirst), line: 0, offset: state.segmentBytes,
                                   reason: "not written: action \(action.id) (\(action.type)) has a payload nested deeper than the \(JSONLimits.journalDepth - 1) levels the journal reads back")
                }
                // The object lies between the line's checksum prefix and its newline.
                let start = state.buffer.count + JournalRecord.prefixLength
                JournalLine.append(actions[index], chain: &chain, times: &times, to: &state.buffer)
                spans.append(EncodedBatch.Span(start: UInt32(truncatingIfNeeded: start),
                                               end: UInt32(truncatingIfNeeded: state.buffer.count - 1)))
            }
        }
        if let file = state.file, state.rotateBeforeNextAppend || first != state.lastSequence + 1
            || (state.segmentBytes > 0 && state.segmentBytes + state.buffer.count > Self.maximumSegmentBytes) {
            // A finished segment is flushed whatever the policy, so a snapshot, which is
            // flushed too, never runs ahead of the actions before it. Also when not dirty (under
            // `always`, which flushed each append): it costs little then, and the next
            // segment's mark must never be on disk before this segment's end is. Nor may the
            // next segment itself: the walk takes only the newest segment's tail for torn.
            try sync(file, entry: state.entryDirty)
            state.dirty = false
            state.entryDirty = false
            state.file = nil
        }
        state.rotateBeforeNextAppend = false
        if state.file == nil { try startSegment(first: first, state: &state) }
        let file = state.file!
        do throws(JournalError) {
            try file.write(state.buffer)
            if state.fsync == .always {
                // The entry is dirty for a segment started under `interval` before the policy
                // became `always`.
                try sync(file, entry: state.entryDirty)
                state.entryDirty = false
            }
        } catch {
            // Cutting back needs no space, so even a full disk keeps only whole, acknowledged batches.
            try? file.truncate(to: state.segmentBytes)
            throw error
        }
        if state.fsync != .always { state.dirty = true }
        state.segmentBytes += state.buffer.count
        state.totalBytes += state.buffer.count
        state.lastSequence = last
        state.reserved = max(state.reserved, last)
        state.chain = chain
        if state.fsync == .always {
            try writeMark(position(of: state), sync: false)
            state.markDirty = true
        }
        state.sinceSnapshot += count
        if state.sinceSnapshot >= state.snapshotEvery {
            state.sinceSnapshot = 0
            state.snapshotDue = (last, chain)
            state.rotateBeforeNextAppend = true
        }
        // The objects share the buffer, so the next append writes into a new one.
        let objects = state.buffer.count <= Int(UInt32.max) ? EncodedBatch(bytes: state.buffer, spans: spans) : nil
        // A burst can grow the buffer far beyond a usual batch; do not keep that memory.
        if state.buffer.capacity > 1 << 20 { state.buffer = [] }
        return objects
    }

    /// Creates the segment for `first` with its header and, under `always`, flushes it with
    /// its directory entry and moves the mark onto it, so the first append's acknowledgement
    /// means on disk. Under `interval` the next flush does all three (the writer's thread does
    /// not wait for the disk, nor do the acknowledgements behind it); until then the mark stays
    /// in the segment before, which this segment's start follows: after a power cut the new
    /// segment, whole, torn or gone, is the newest and unflushed, as the tail of one is. Under
    /// `never` the mark moves unflushed.
    private func startSegment(first: UInt64, state: inout State) throws(JournalError) {
        let path = layout.segmentPath(firstSequence: first)
        let existed = access(path, F_OK) == 0
        let file = try OpenFile(path: path, flags: O_WRONLY | O_CREAT | O_TRUNC)
        var header: [UInt8] = []
        JournalSegmentHeader(first: first, after: state.lastSequence, previous: state.chain).append(to: &header)
        try file.write(header)
        state.file = file
        state.segmentFirst = first
        state.segmentBytes = header.count
        state.totalBytes += header.count
        if !existed { state.segments += 1 }
        switch state.fsync {
        case .always:
            try sync(file, entry: true)
            try writeMark(position(of: state), sync: true)
        case .interval:
            state.dirty = true
            state.entryDirty = true
        case .never:
            try writeMark(position(of: state), sync: false)
        }
    }

    /// Flushes `file`'s data (when there is a file to flush) and, with `entry`, the directory
    /// entry of a segment started without flushing it; always in that order, as the mark
    /// written after must not be on disk before either.
    private func sync(_ file: OpenFile?, entry: Bool) throws(JournalError) {
        try file?.sync()
        if entry { try FileSystem.syncDirectory(layout.directory) }
    }

    private func position(of state: State) -> JournalMark {
        JournalMark(first: state.segmentFirst, length: state.segmentBytes, sequence: state.lastSequence,
                    chain: state.chain, reserved: state.reserved)
    }

    /// Writes `position` as the durable mark unless a newer one is already written; with
    /// `sync`, also flushes a mark written before without.
    private func writeMark(_ position: JournalMark, sync: Bool) throws(JournalError) {
        guard position.first > 0 else { return }
        try mark.withLock { (mark: inout MarkState) throws(JournalError) in
            if let written = mark.written, (written.first, written.length) >= (position.first, position.length), written.first != 0 {
                // Only an append under `always` writes a mark unflushed, after flushing its data.
                if sync, !mark.synced {
                    try mark.file.sync()
                    mark.synced = true
                }
                return
            }
            try position.write(to: mark.file, sync: sync)
            mark.written = position
            mark.synced = sync
        }
    }

    /// The sequence number (and chain checksum) of a snapshot that became due, handed out once:
    /// when it is `sequence`, the last action of a published batch whose state the caller holds
    /// (any due one, without `sequence`). A due snapshot older than `sequence` was passed by
    /// and is dropped; the next one comes after `snapshotEvery` more actions.
    func takeSnapshotDue(through sequence: UInt64? = nil) -> (sequence: UInt64, chain: UInt32)? {
        state.withLock { state in
            guard let due = state.snapshotDue else { return nil }
            if let sequence, due.sequence > sequence { return nil }
            state.snapshotDue = nil
            guard sequence == nil || due.sequence == sequence else { return nil }
            return due
        }
    }

    /// Flushes appended data to the device, if any was written since the last flush, then
    /// records the flushed position in the durable mark; under `always`, where each append
    /// flushed its data, flushes the mark the appends wrote. Safe from any thread but the
    /// writer's: the syncs run outside the appends' lock, so appends go on meanwhile, and a
    /// flush that finds another under way waits for it.
    func flush() throws(JournalError) {
        try flushing.withLock { _ throws(JournalError) in
            let pending: (OpenFile?, entry: Bool, JournalMark)? = state.withLock { state in
                guard state.dirty || state.markDirty, state.failure == nil, let file = state.file else { return nil }
                defer {
                    state.dirty = false
                    state.markDirty = false
                    state.entryDirty = false
                }
                return (state.dirty ? file : nil, state.entryDirty, position(of: state))
            }
            guard let (file, entry, position) = pending else { return }
            do throws(JournalError) {
                try sync(file, entry: entry)
                try writeMark(position, sync: true)
            } catch {
                state.withLock { state in
                    if state.failure == nil { state.failure = error }
                }
                throw error
            }
        }
    }

    /// Whether a ``flush()`` has anything to do: data or a mark written since the last one.
    var needsFlush: Bool { state.withLock { $0.dirty || $0.markDirty } }

    /// Applies new settings: the fsync policy and the snapshot interval take effect with the
    /// next append.
    func update(_ settings: JournalSettings) {
        state.withLock { state in
            state.fsync = settings.fsync
            state.snapshotEvery = settings.snapshotEvery
        }
    }

    /// Records `bytes` of other journal files (snapshots written or removed) in the size.
    func account(bytes: Int) {
        state.withLock { $0.totalBytes += bytes }
    }

    /// Records segments removed by compaction.
    func account(removedSegments count: Int, bytes: Int) {
        state.withLock { state in
            state.segments -= count
            state.totalBytes -= bytes
        }
    }

    /// Flushes and closes the segment and records its end in the durable mark (flushed too,
    /// unless the policy is `never`); later appends reopen it.
    func close() throws(JournalError) {
        // Under the flushes' lock: a flush under way may have taken the directory entry to
        // flush, and the mark must not be on disk before that entry is.
        try flushing.withLock { _ throws(JournalError) in
            let pending: (OpenFile, entry: Bool, JournalMark, Bool)? = state.withLock { state in
                defer {
                    state.file = nil
                    state.dirty = false
                    state.markDirty = false
                    state.entryDirty = false
                }
                guard state.failure == nil, let file = state.file else { return nil }
                return (file, state.entryDirty, position(of: state), state.fsync != .never)
            }
            guard let (file, entry, position, flushes) = pending else { return }
            if flushes { try sync(file, entry: entry) }
            try writeMark(position, sync: flushes)
        }
    }

    var lastSequence: UInt64 { state.withLock { $0.lastSequence } }
    /// The chain checksum at ``lastSequence``.
    var chain: UInt32 { state.withLock { $0.chain } }
    var fsync: JournalSettings.Fsync { state.withLock { $0.fsync } }
    var totalBytes: Int { state.withLock { $0.totalBytes } }
    var segments: Int { state.withLock { $0.segments } }
    var failure: JournalError? { state.withLock { $0.failure } }
}
