import Glibc
import Synchronization

/// Appends reduced batches to the newest segment: one `write` and, with the `always` policy,
/// one `fdatasync` per batch.
///
/// A new segment starts when the current one would grow past ``maximumSegmentBytes`` and
/// right after an action that makes a snapshot due, so a restart reads only the segments
/// after the latest snapshot. Segments are created on the first append that needs them and
/// named after that append's first sequence number.
final class JournalWriter: Sendable {
    /// The largest a segment grows before the next batch starts a new one: 64 MiB.
    static let maximumSegmentBytes = 64 << 20

    private struct State: Sendable {
        var file: OpenFile?
        var segmentBytes = 0
        var fsync: JournalSettings.Fsync
        var snapshotEvery: Int
        var sinceSnapshot = 0
        var rotateBeforeNextAppend = false
        var snapshotDue: UInt64?
        var dirty = false
        var buffer: [UInt8] = []
        var lastSequence: UInt64
        var totalBytes: Int
        var segments: Int
        var failure: JournalError?
    }

    let layout: JournalLayout
    private let state: Mutex<State>

    /// Opens for appending after a restore: the newest segment is cut back to its whole
    /// lines (dropping a torn last line) and appended to.
    init(layout: JournalLayout, restored: JournalRestore.Outcome, settings: JournalSettings) throws(JournalError) {
        self.layout = layout
        let (segments, snapshots) = try layout.list()
        var file: OpenFile?
        var segmentBytes = 0
        var rotate = false
        if let (segment, validLength) = restored.newestSegment {
            let opened = try OpenFile(path: segment.path, flags: O_WRONLY | O_APPEND)
            if try opened.size() != validLength {
                try opened.truncate(to: validLength)
                try opened.sync()
            }
            file = opened
            segmentBytes = validLength
            // After a machine crash under a lax policy a snapshot may be newer than the
            // segment's end; the next action then starts a segment of its own.
            rotate = restored.newestLastSequence != restored.lastSequence
        }
        let totalBytes = segments.reduce(0) { $0 + FileSystem.size($1.path) } + snapshots.reduce(0) { $0 + FileSystem.size($1.path) }
        let sinceSnapshot = Int(clamping: restored.lastSequence - (restored.snapshotSequence ?? 0))
        state = Mutex(State(file: file, segmentBytes: segmentBytes, fsync: settings.fsync,
                            snapshotEvery: settings.snapshotEvery, sinceSnapshot: sinceSnapshot,
                            rotateBeforeNextAppend: rotate,
                            lastSequence: restored.lastSequence, totalBytes: totalBytes, segments: segments.count))
    }

    /// Appends a reduced batch, whose ids continue the journal's sequence.
    /// - Throws: ``JournalError`` when the write or flush fails; the journal then takes no
    ///   more actions.
    func append(_ actions: [BusAction]) throws(JournalError) {
        guard let first = actions.first, let last = actions.last else { return }
        try state.withLock { (state: inout State) throws(JournalError) in
            if let failure = state.failure { throw failure }
            do throws(JournalError) {
                try append(actions, first: first.id, last: last.id, to: &state)
            } catch {
                state.failure = error
                throw error
            }
        }
    }

    private func append(_ actions: [BusAction], first: UInt64, last: UInt64, to state: inout State) throws(JournalError) {
        state.buffer.removeAll(keepingCapacity: true)
        for action in actions { JournalLine.append(action, to: &state.buffer) }
        if let file = state.file, state.rotateBeforeNextAppend
            || (state.segmentBytes > 0 && state.segmentBytes + state.buffer.count > Self.maximumSegmentBytes) {
            // A finished segment is flushed whatever the policy, so a snapshot, which is
            // flushed too, never runs ahead of the actions before it.
            if state.dirty { try file.sync() }
            state.dirty = false
            state.file = nil
        }
        state.rotateBeforeNextAppend = false
        if state.file == nil {
            let path = layout.segmentPath(firstSequence: first)
            let existed = access(path, F_OK) == 0
            state.file = try OpenFile(path: path, flags: O_WRONLY | O_CREAT | O_APPEND)
            state.segmentBytes = try state.file!.size()
            if !existed { state.segments += 1 }
            if state.fsync != .never { try FileSystem.syncDirectory(layout.directory) }
        }
        try state.file!.write(state.buffer)
        if state.fsync == .always { try state.file!.sync() } else { state.dirty = true }
        state.segmentBytes += state.buffer.count
        state.totalBytes += state.buffer.count
        state.lastSequence = last
        state.sinceSnapshot += actions.count
        if state.sinceSnapshot >= state.snapshotEvery {
            state.sinceSnapshot = 0
            state.snapshotDue = last
            state.rotateBeforeNextAppend = true
        }
        // A burst can grow the buffer far beyond a usual batch; do not keep that memory.
        if state.buffer.capacity > 1 << 20 { state.buffer = [] }
    }

    /// The sequence number of a snapshot that became due, handed out once.
    func takeSnapshotDue() -> UInt64? {
        state.withLock { state in
            defer { state.snapshotDue = nil }
            return state.snapshotDue
        }
    }

    /// Flushes appended data to the device, if any was written since the last flush. The
    /// sync runs outside the lock, so appends go on meanwhile.
    func flush() throws(JournalError) {
        let file: OpenFile? = state.withLock { state in
            guard state.dirty else { return nil }
            state.dirty = false
            return state.file
        }
        try file?.sync()
    }

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

    /// Flushes and closes the segment; later appends reopen it.
    func close() throws(JournalError) {
        let file: OpenFile? = state.withLock { state in
            defer {
                state.file = nil
                state.dirty = false
            }
            return state.failure == nil && state.fsync != .never ? state.file : nil
        }
        try file?.sync()
    }

    var lastSequence: UInt64 { state.withLock { $0.lastSequence } }
    var fsync: JournalSettings.Fsync { state.withLock { $0.fsync } }
    var totalBytes: Int { state.withLock { $0.totalBytes } }
    var segments: Int { state.withLock { $0.segments } }
    var failure: JournalError? { state.withLock { $0.failure } }
}
