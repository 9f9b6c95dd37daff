import Synchronization
import SwitchyardIO

/// Writes reduced batches to the journal on a thread of its own, with group commit.
///
/// The store hands over each reduced batch and goes on reducing the next one; the writer takes
/// every batch waiting at that moment and appends them with one `write` and, under
/// `fsync: always`, one `fdatasync`, then resolves each batch's ``BatchCommit`` — with the
/// failure when the append failed, so no batch of a failed group is ever acknowledged. While
/// one group is written and flushed the next batches gather, so one flush covers everything
/// that arrived meanwhile. The thread is the committer's own (not a libdispatch worker), so the
/// journal's thread count does not follow the load; it ends after ``Journal/idleThreadExit``
/// without work and the next batch starts it again. No journal I/O runs on the Swift
/// concurrency pool.
final class JournalCommitter: Sendable {
    private typealias Batch = (actions: [BusAction], commit: BatchCommit)

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
    /// Told the JSON objects of every batch written, before the batch is resolved.
    private struct Written: Sendable {
        var handler: (@Sendable ([EncodedRun]) -> Void)?
    }

    private let written = Mutex(Written())
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

    /// Hands `handler` the JSON objects of the batches of every group written, one run per
    /// batch in order, before any of them is resolved (so before the store publishes them): a
    /// batch's objects are written once, here, on the writer's thread, and serve everything
    /// that sends the batch as text.
    func onWritten(_ handler: @escaping @Sendable ([EncodedRun]) -> Void) {
        written.withLock { $0.handler = handler }
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
    /// result is resolved once it is written (and flushed as the policy says) or failed.
    func commit(_ actions: [BusAction]) -> BatchCommit {
        let commit = BatchCommit()
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

    /// Says why the writer's thread polls instead of parking; `nil` when it parks.
    var pollingNotice: String? { thread.pollingNotice }

    private func writeGroups() {
        while let group = takeGroup() {
            var reason: String?
            do {
                let objects = try writer.append(contentsOf: group.lazy.map(\.actions))
                if let last = group.last(where: { !$0.actions.isEmpty })?.actions.last { appends.wrote(through: last.id) }
                if let objects, let handler = written.withLock({ $0.handler }) { handler(Self.runs(of: group, in: objects)) }
            } catch {
                reason = error.description
                report(error)
            }
            for batch in group { batch.commit.resolve(failure: reason) }
        }
    }

    /// Each batch's part of the group's objects.
    private static func runs(of group: [Batch], in objects: EncodedBatch) -> [EncodedRun] {
        var runs: [EncodedRun] = []
        runs.reserveCapacity(group.count)
        var offset = 0
        for batch in group {
            if let first = batch.actions.first {
                runs.append(EncodedRun(batch: objects, offset: offset, count: batch.actions.count, firstID: first.id))
            }
            offset += batch.actions.count
        }
        return runs
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
