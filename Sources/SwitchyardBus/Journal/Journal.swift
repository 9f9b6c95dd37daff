import FoundationEssentials
import Glibc
import Synchronization
import SwitchyardIO

/// The journal of a running bus: appends every reduced batch, writes snapshots in the
/// background, and flushes on the configured policy.
///
/// The store hands each reduced batch to ``commit(_:)`` and publishes it — and acknowledges
/// its dispatches — only once the writer's thread has written it (``JournalCommitter``), so
/// with `fsync: always` an acknowledged dispatch is on disk; batches that arrive during its
/// `write` (and, under `always`, its `fdatasync`) gather and go out as one group after it.
/// The periodic flush and snapshots run on a background thread of their own, off the writer's
/// path: under `interval` acknowledgements wait for the disk only when a segment ends (after
/// each snapshot), for that segment's flush. Flushes never overlap (``JournalWriter/flush()``);
/// at most one snapshot waits at a time (a newer one replaces it). No journal I/O runs on the Swift
/// concurrency pool or a libdispatch worker: both threads are the journal's own, so a busy bus
/// has no more of them than an idle one, and each ends after ``idleThreadExit`` without work.
final class Journal: Sendable {
    /// How often the `interval` policy flushes: once a second, on the background thread, so a
    /// snapshot being written there (which flushed first) may delay it by the snapshot's time.
    static let flushInterval: Duration = .seconds(1)
    /// How many snapshots are kept; older ones are removed once a newer one is on disk.
    static let keptSnapshots = 2
    /// The free space a journal needs to start: 256 KiB. A bus on a full disk refuses to start
    /// rather than run until its first write fails.
    static let minimumFreeBytes = 256 << 10
    /// How long the journal's threads stay parked without work before they end (the next work
    /// starts them again).
    static let idleThreadExit: Duration = .seconds(10)

    private struct SnapshotState: Sendable {
        var pending: JournalSnapshot?
        var scheduled = false
        var latest: UInt64?
    }

    let layout: JournalLayout
    let writer: JournalWriter
    private let committer: JournalCommitter
    /// Whether the store reduces on the writer's thread (``reducingExecutor``).
    private let reducesOnWriter: Bool
    private let log: LogSink
    private let background = WorkerThread(name: "journal-bg", idleExit: Journal.idleThreadExit)
    private let snapshots: Mutex<SnapshotState>
    private let flushing = Mutex<Task<Void, Never>?>(nil)
    /// The part of the journal the restore did not read, to check after start.
    private let olderCheck: OlderJournalCheck?
    /// The damage that check found, for `stats` and `/metrics`.
    private let olderDamage = Mutex<String?>(nil)

    private init(layout: JournalLayout, writer: JournalWriter, snapshotSequence: UInt64?, olderCheck: OlderJournalCheck?, log: LogSink) {
        self.olderCheck = olderCheck
        self.layout = layout
        self.writer = writer
        self.log = log
        self.snapshots = Mutex(SnapshotState(latest: snapshotSequence))
        self.committer = JournalCommitter(writer: writer, log: log)
        reducesOnWriter = writer.fsync != .always
        for notice in [committer.pollingNotice, background.pollingNotice].compactMap(\.self) {
            log.write(.warning, "journal: \(notice)")
        }
    }

    /// Restores the state from the journal in `layout` and opens it for appending.
    ///
    /// - Parameters:
    ///   - initialState: The state of an empty journal.
    ///   - adopt: Turns a snapshot's state into the starting state.
    ///   - reduce: The bus reducer, for the actions after the snapshot.
    ///   - progress: Hears how far the restore has got.
    /// - Throws: ``JournalError`` when the journal is corrupt or cannot be read or written.
    static func open(
        layout: JournalLayout,
        settings: JournalSettings,
        initialState: JSON,
        adopt: (JSON) -> JSON,
        reduce: (inout JSON, BusAction) -> Void,
        log: LogSink,
        progress: JournalProgress? = nil
    ) throws(JournalError) -> (journal: Journal, restored: JournalRestore.Outcome) {
        try FileSystem.makeDirectories(layout.directory)
        for name in try FileSystem.names(in: layout.directory) where name.hasSuffix(".tmp") {
            try FileSystem.remove(layout.directory + "/" + name)
        }
        let restored = try JournalRestore(layout: layout).restore(initialState: initialState, adopt: adopt, reduce: reduce, progress: progress)
        var space = statvfs()
        if statvfs(layout.directory, &space) == 0, Int(space.f_bavail) * Int(space.f_frsize) < minimumFreeBytes {
            throw .system(path: layout.directory, operation: "start the journal in", reason:
                "only \(ByteCount.text(Int(space.f_bavail) * Int(space.f_frsize))) is free on its file system and the journal needs \(ByteCount.text(minimumFreeBytes)) to start: No space left on device (ENOSPC, errno \(ENOSPC))")
        }
        let writer = try JournalWriter(layout: layout, restored: restored, settings: settings)
        if restored.tornLength > 0, let newest = restored.newestSegment {
            log.write(.warning, "journal: dropped a torn last line of \(restored.tornLength) bytes at byte \(newest.validLength) of \(newest.segment.path) (an append cut short after the last flush; it was never acknowledged as durable)")
        }
        let journal = Journal(layout: layout, writer: writer, snapshotSequence: restored.snapshotSequence,
                              olderCheck: OlderJournalCheck(layout: layout, restored: restored), log: log)
        return (journal, restored)
    }

    /// Hands a reduced batch, whose ids continue the journal's sequence, to the writer's
    /// thread; the result is resolved once the batch is written (and flushed as the policy
    /// says), or with the error when the journal failed — now or before. The first failure is
    /// logged and stops the bus (``onFailure(_:)``) before any batch learns of it.
    func commit(_ actions: [BusAction]) -> BatchCommit<EncodedRun> {
        committer.commit(actions)
    }

    /// Writes a snapshot in the background when the append that ended with `sequence` made one
    /// due; `state` is read only then, and must be the state after that action.
    func snapshotIfDue(through sequence: UInt64, _ state: () -> JSON) {
        guard let due = writer.takeSnapshotDue(through: sequence) else { return }
        let schedule = snapshots.withLock { snapshots in
            snapshots.pending = JournalSnapshot(sequence: due.sequence, state: state(), chain: due.chain)
            defer { snapshots.scheduled = true }
            return !snapshots.scheduled
        }
        if schedule { background.submit { self.writePendingSnapshots() } }
    }

    /// Flushes every ``flushInterval`` of `clock` until ``close(finalState:)``: the data and
    /// the durable mark under `interval`, the mark under `always` (its data is flushed with
    /// every append), nothing under `never`.
    func startFlushing<C: Clock>(on clock: C) where C.Duration == Duration {
        let task = Task { [weak self] in
            while !Task.isCancelled {
                do {
                    try await clock.sleep(for: Self.flushInterval)
                } catch {
                    return
                }
                guard let self else { return }
                // Nothing appended since the last flush queues nothing, so an idle bus's
                // writer thread can end.
                if writer.fsync != .never, writer.needsFlush { background.submit { self.flushNow() } }
            }
        }
        flushing.withLock { $0 = task }
    }

    /// Waits for background work and every batch handed over, writes a final snapshot when
    /// actions followed the latest one, and flushes and closes the segment, on the writer's
    /// thread: the calling task waits without holding one. Called once, when the bus has
    /// stopped.
    func close(finalState: JSON) async {
        flushing.withLock { $0?.cancel() }
        await background.run {}
        await committer.run { self.closeNow(finalState: finalState) }
    }

    private func closeNow(finalState: JSON) {
        let last = writer.lastSequence
        let latest = snapshots.withLock { $0.latest }
        if writer.failure == nil, last > 0, latest.map({ $0 < last }) ?? true {
            write(JournalSnapshot(sequence: last, state: finalState, chain: writer.chain))
        }
        do {
            try writer.close()
        } catch {
            log.write(.error, "journal: \(error)")
        }
    }

    /// Tells readers of this journal when actions are appended.
    var appends: JournalAppends { committer.appends }

    /// Where the store's reducing task runs: the writer's thread, unless every append waits
    /// for the disk (`fsync: always`, as the journal was opened), where it is `nil` (the
    /// shared pool).
    ///
    /// On the writer's thread a batch is reduced, written and answered without waking another
    /// thread: a dispatch crosses from the socket's loop to this thread and back, where the
    /// pool added a third thread to wake (`docs/performance-history.md`, eighteenth session:
    /// p50 latency 34 against 47 µs, p99 89 against 114 µs). Under `always` the reducing task
    /// stays on the pool, so the next batch is reduced while the writer waits for
    /// `fdatasync` (on the writer's thread, it waited too: 84,000 against 122,000 actions/s).
    /// Chosen once, when the bus starts: a reload that changes the policy changes only speed.
    var reducingExecutor: (any TaskExecutor)? { reducesOnWriter ? committer.executor : nil }

    /// The journal's counters.
    var statistics: JournalStatistics {
        JournalStatistics(directory: layout.directory, bytes: writer.totalBytes, segments: writer.segments,
                          lastSequence: writer.lastSequence, snapshotSequence: snapshots.withLock { $0.latest },
                          fsync: writer.fsync, failure: writer.failure?.description, olderDamage: olderDamage.withLock { $0 })
    }

    /// Checks the segments and snapshots behind the restore's snapshot on a thread of its own
    /// (``OlderJournalCheck``) and hands the outcome to `report`; damage also shows in
    /// ``statistics``. Does nothing when the restore read the whole journal.
    func checkOlderPart(report: @escaping @Sendable (OlderJournalCheck.Outcome) -> Void) {
        guard let olderCheck else { return }
        startDetachedThread { [self] in
            nameCurrentThread("journal-check")
            let outcome = olderCheck.run()
            if case .damaged(let error) = outcome { olderDamage.withLock { $0 = error.description } }
            report(outcome)
        }
    }

    /// Calls `handler` once when the journal fails — an append or a background flush — so the
    /// bus stops.
    func onFailure(_ handler: @escaping @Sendable () -> Void) {
        committer.onFailure(handler)
    }

    /// The periodic flush, on the background thread.
    private func flushNow() {
        do {
            try writer.flush()
        } catch {
            committer.report(error)
        }
    }

    private func writePendingSnapshots() {
        while let snapshot = snapshots.withLock({ snapshots -> JournalSnapshot? in
            defer { snapshots.pending = nil }
            if snapshots.pending == nil { snapshots.scheduled = false }
            return snapshots.pending
        }) {
            write(snapshot)
        }
    }

    /// Flushes the segments through the snapshot's sequence first, so a snapshot on disk
    /// never runs ahead of the actions before it; then writes it and removes older ones.
    private func write(_ snapshot: JournalSnapshot) {
        do {
            try writer.flush()
            try snapshot.write(in: layout, at: Date())
            writer.account(bytes: FileSystem.size(layout.snapshotPath(sequence: snapshot.sequence)))
            snapshots.withLock { $0.latest = max($0.latest ?? 0, snapshot.sequence) }
            let older = try layout.list().snapshots.dropLast(Self.keptSnapshots)
            for stale in older {
                let size = FileSystem.size(stale.path)
                try FileSystem.remove(stale.path)
                writer.account(bytes: -size)
            }
        } catch {
            // A snapshot is an optimisation: without it a restart replays more. Its temporary
            // file goes, so a full disk is not made fuller.
            try? FileSystem.remove(layout.snapshotPath(sequence: snapshot.sequence) + ".tmp")
            log.write(.error, "journal: snapshot at \(snapshot.sequence) not written: \(error)")
        }
    }
}
