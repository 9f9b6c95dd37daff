import Synchronization
import SwitchyardIO

/// Writes reduced batches to the journal on a thread of its own, with group commit.
///
/// The store hands over each reduced batch and goes on reducing the next one; the writer takes
/// every batch waiting at that moment and appends them with one `write` and, under
/// `fsync: always`, one `fdatasync`, then resolves each batch's ``BatchCommit`` with the JSON
/// objects it wrote for that batch (an ``EncodedRun``, which travels on with the batch to the
/// watchers' lines) — or with the failure when the append failed, so no batch of a failed group
/// is ever acknowledged. While
/// one group is written and flushed the next batches gather, so one flush covers everything
/// that arrived meanwhile. The thread is the committer's own (not a libdispatch worker), so the
/// journal's thread count does not follow the load; it ends after ``Journal/idleThreadExit``
/// without work and the next batch starts it again. No journal I/O runs on the Swift
/// concurrency pool.
final class JournalCommitter: Sendable {
    private typealias Batch = (actions: [BusAction], commit: BatchCommit<EncodedRun>)

    private struct Pending: Sendable {
        var batches: [Batch] = []
        var scheduled = false
    }

    private let writer: JournalWriter
    private let thread = WorkerThread(name: "journal-writer", idleExit: Journal.idleThreadExit)
    private let pending = Mutex(Pending())
    private let log: LogSink
    /// A struct, not a tuple: a closure in a `Mutex`'s tuple value is re-wrapped in thunks
    /// on every `withLock`.
    private struct Failure: Sendable {
        var handler: (@Sendable () -> Void)?
        var reported = false
    }

    private let failure = Mutex(Failure())
    /// Moved after every group written, before its batches are resolved: a reader told of an
    /// append finds it in the segment.
    let appends: JournalAppends

    /// A committer appending through `writer`, logging the journal's first failure to `log`.
    init(writer: JournalWriter, log: LogSink) {
        self.writer = writer
        self.log = log
        appends = JournalAppends(after: writer.lastSequence)
    }

    /// Calls `handler` when the journal first fails, before any batch learns of the failure.
    func onFailure(_ handler: @escaping @Sendable () -> Void) {
        failure.withLock { $0.handler = handler }
    }

    /// Reports a failed append or flush: the journal's first failure is logged and calls the
    /// failure handler (the bus stops); later ones repeat it and are not logged again.
    func report(_ error: JournalError) {
        let (first, handler) = failure.withLock { failure in
            defer { failure.reported = true }
            return (!failure.reported, failure.handler)
        }
        guard first else { return }
        log.write(.error, "journal: \(error); stopping the bus: no action is acknowledged unless it is on disk")
        handler?()
    }

    /// Hands a reduced batch, whose ids continue the journal's sequence, to the writer; the
    /// result is resolved once it is written (and flushed as the policy says), carrying the
    /// batch's JSON objects as an ``EncodedRun`` (written once, here, on the writer's thread,
    /// for everything that sends the batch as text), or failed.
    func commit(_ actions: [BusAction]) -> BatchCommit<EncodedRun> {
        let commit = BatchCommit<EncodedRun>()
        let schedule = pending.withLock { pending in
            pending.batches.append((actions, commit))
            defer { pending.scheduled = true }
            return !pending.scheduled
        }
        if schedule { thread.submit { self.writeGroups() } }
        return commit
    }

    /// Runs `body` on the writer's thread once every batch handed over before is resolved,
    /// and returns its result; the calling task waits without holding a thread.
    func run<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async -> Result {
        await thread.run(body)
    }

    /// The writer's thread as a task executor, for the store's reducing task.
    var executor: any TaskExecutor { thread }

    /// Says why the writer's thread polls instead of parking; `nil` when it parks.
    var pollingNotice: String? { thread.pollingNotice }

    private func writeGroups() {
        while let group = takeGroup() {
            let objects: EncodedBatch?
            do {
                objects = try writer.append(contentsOf: group.lazy.map(\.actions))
                if let last = group.last(where: { !$0.actions.isEmpty })?.actions.last { appends.wrote(through: last.id) }
            } catch {
                report(error)
                for batch in group { batch.commit.resolve(failure: error.description) }
                continue
            }
            // Each batch's part of the group's objects goes with its own commit.
            var offset = 0
            for batch in group {
                let run = objects.map { EncodedRun(batch: $0, offset: offset, count: batch.actions.count) }
                batch.commit.resolve(failure: nil, written: run)
                offset += batch.actions.count
            }
        }
    }

    private func takeGroup() -> [Batch]? {
        pending.withLock { pending in
            guard !pending.batches.isEmpty else {
                pending.scheduled = false
                return nil
            }
            defer { pending.batches = [] }
            return pending.batches
        }
    }
}
