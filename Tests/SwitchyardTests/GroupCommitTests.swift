import Foundation
import Synchronization
import SwitchyardIO
import SwitchyardTestSupport
import Testing
@testable import Switchyard
@testable import SwitchyardBus

/// The journal's writer thread: batches committed together, acknowledged only once written,
/// a failed group never acknowledged, snapshots handed to the batch they belong to.
struct GroupCommitTests {
    private func openWriter(_ directory: JournalTestDirectory, fsync: JournalSettings.Fsync, snapshotEvery: Int = 10_000) throws -> JournalWriter {
        try FileManager.default.createDirectory(atPath: directory.journal, withIntermediateDirectories: true)
        let layout = JournalLayout(directory: directory.journal)
        let restored = try JournalRestore(layout: layout).restore(initialState: .null, adopt: { $0 }, reduce: { _, _ in })
        return try JournalWriter(layout: layout, restored: restored, settings: JournalSettings(fsync: fsync, snapshotEvery: snapshotEvery))
    }

    private func deep(_ levels: Int) -> JSON {
        (0..<levels).reduce(JSON.integer(1)) { inner, _ in .array([inner]) }
    }

    /// Batches handed over back to back are all written, in order, and each is resolved as durable.
    @Test(arguments: [JournalSettings.Fsync.always, .interval, .never])
    func batchesAreWrittenInOrder(fsync: JournalSettings.Fsync) async throws {
        let directory = try JournalTestDirectory()
        let writer = try openWriter(directory, fsync: fsync)
        let committer = JournalCommitter(writer: writer, log: LogSink(output: { _ in }))
        let commits = [[journaled(1), journaled(2)], [journaled(3)], [journaled(4), journaled(5), journaled(6)]].map(committer.commit)
        for commit in commits { #expect(await commit.wait() == nil) }
        #expect(writer.lastSequence == 6)
        await committer.run { try? writer.close() }
        let report = try JournalDirectory(dataDirectory: directory.path).verify()
        #expect(report.actions == 6 && report.lastSequence == 6)
    }

    /// A batch the journal cannot write fails with the reason, and so does every later one; the
    /// failure handler runs once and the failure is logged once.
    @Test func failedBatchIsNeverAcknowledged() async throws {
        let directory = try JournalTestDirectory()
        let writer = try openWriter(directory, fsync: .always)
        let lines = Mutex<[String]>([])
        let stops = Atomic<Int>(0)
        let committer = JournalCommitter(writer: writer, log: LogSink(output: { line in lines.withLock { $0.append(line) } }))
        committer.onFailure { stops.add(1, ordering: .relaxed) }
        #expect(await committer.commit([journaled(1)]).wait() == nil)
        let failed = await committer.commit([journaled(2, payload: deep(JSONLimits.journalDepth + 1))]).wait()
        #expect(failed?.contains("nested deeper") == true, "\(String(describing: failed))")
        let later = await committer.commit([journaled(3)]).wait()
        #expect(later == failed)
        #expect(stops.load(ordering: .relaxed) == 1)
        #expect(lines.withLock { $0 }.count == 1)
        #expect(writer.lastSequence == 1)
    }

    /// A commit resolved before anyone waits is still seen by a later wait, once.
    @Test func resolvedCommitIsSeenByALateWait() async {
        let commit = BatchCommit<Never>()
        commit.resolve(failure: "disk full")
        commit.resolve(failure: nil)
        #expect(await commit.wait() == "disk full")
    }

    /// A durable batch carries what was written for it; a failed one carries nothing.
    @Test func durableCommitCarriesWhatWasWritten() async {
        let durable = BatchCommit<String>()
        durable.resolve(failure: nil, written: "lines")
        #expect(await durable.wait() == nil)
        #expect(durable.written == "lines")
        let failed = BatchCommit<String>()
        failed.resolve(failure: "disk full", written: "lines")
        #expect(await failed.wait() == "disk full")
        #expect(failed.written == nil)
    }

    /// The committer hands each batch of a group written together its own objects, with its
    /// commit: the watchers' lines come with the batch, not from a table looked up by id.
    @Test func eachBatchOfAGroupCarriesItsOwnObjects() async throws {
        let directory = try JournalTestDirectory()
        let committer = JournalCommitter(writer: try openWriter(directory, fsync: .never), log: LogSink(output: { _ in }))
        let first = committer.commit([journaled(1), journaled(2)])
        let second = committer.commit([journaled(3)])
        #expect(await first.wait() == nil)
        #expect(await second.wait() == nil)
        for (commit, ids) in [(first, [UInt64(1), 2]), (second, [3])] {
            let run = try #require(commit.written)
            #expect(run.count == ids.count)
            let objects = (0..<run.count).map { index in
                var bytes: [UInt8] = []
                run.batch.appendObject(at: run.offset + index, to: &bytes)
                return String(decoding: bytes, as: UTF8.self)
            }
            #expect(objects == ids.map { journaled($0).json.serialized() })
        }
    }

    /// Under `always` each append writes the durable mark at once (flushed later, with the next
    /// periodic flush), so it names the last acknowledged action.
    @Test func alwaysWritesTheMarkWithEachAppend() throws {
        let directory = try JournalTestDirectory()
        let writer = try openWriter(directory, fsync: .always)
        try writer.append([journaled(1), journaled(2)])
        #expect(try JournalMark.read(JournalLayout(directory: directory.journal))?.sequence == 2)
        try writer.append([journaled(3)])
        try writer.flush()
        #expect(try JournalMark.read(JournalLayout(directory: directory.journal))?.sequence == 3)
    }

    /// A due snapshot goes to the batch that ends at its sequence number, not to an earlier one;
    /// one that was passed by is dropped.
    @Test func snapshotDueBelongsToItsBatch() throws {
        let directory = try JournalTestDirectory()
        let writer = try openWriter(directory, fsync: .never, snapshotEvery: 3)
        try writer.append([journaled(1), journaled(2), journaled(3), journaled(4)])
        #expect(writer.takeSnapshotDue(through: 2) == nil)
        #expect(writer.takeSnapshotDue(through: 4)?.sequence == 4)
        #expect(writer.takeSnapshotDue(through: 4) == nil)
        try writer.append([journaled(5), journaled(6), journaled(7)])
        #expect(writer.takeSnapshotDue(through: 8) == nil)
        #expect(writer.takeSnapshotDue() == nil)
    }
}

/// The store's reducing loop with a commit hook: a batch is published only once durable.
struct StoreCommitTests {
    private final class Commits: BatchSink {
        let pending = Mutex<[BatchCommit<Never>]>([])
        let delivered = Mutex<[Int]>([])

        func commit(_ batch: ReducedBatch<Int, Int, Never>) -> BatchCommit<Never>? {
            let commit = BatchCommit<Never>()
            pending.withLock { $0.append(commit) }
            return commit
        }

        func deliver(_ batch: ReducedBatch<Int, Int, Never>) async { delivered.withLock { $0 += batch.actions } }

        var count: Int { pending.withLock { $0.count } }
        func resolve(_ index: Int, failure: String? = nil) { pending.withLock { $0[index] }.resolve(failure: failure) }
    }

    private func makeStore(_ commits: Commits) -> Store<Int, Int> {
        let store = Store<Int, Int>(
            initialState: 0, reducer: { $0 += $1 }, middleware: [], options: StoreOptions(), firstSequence: 1
        )
        store.startDrainer(into: commits)
        return store
    }

    /// Nothing is published or acknowledged before its commit resolves; then the state, the
    /// sequence number and the delivery follow, in order.
    @Test func publishedOnlyOnceDurable() async {
        let commits = Commits()
        let store = makeStore(commits)
        let outcomes = Mutex<[DispatchOutcome]>([])
        store.submit(5) { outcome in outcomes.withLock { $0.append(outcome) } }
        await waitUntil("the batch is handed to the commit hook") { commits.count == 1 }
        store.submit(7) { outcome in outcomes.withLock { $0.append(outcome) } }
        #expect(store.currentState == 0)
        #expect(outcomes.withLock { $0 }.isEmpty)
        commits.resolve(0)
        await waitUntil("the first batch is published") { outcomes.withLock { $0 }.first == .dispatched(1) }
        await waitUntil("the second batch is handed to the commit hook") { commits.count == 2 }
        #expect(outcomes.withLock { $0 } == [.dispatched(1)])
        #expect(store.currentState == 5)
        commits.resolve(1)
        await waitUntil("the second batch is published") { outcomes.withLock { $0 } == [.dispatched(1), .dispatched(2)] }
        #expect(store.currentState == 12)
        await waitUntil("both are delivered, in order") { commits.delivered.withLock { $0 } == [5, 7] }
    }

    /// A durable batch's state is published and its senders answered on the thread that
    /// resolved its commit (the journal's writer), before the store's own task runs again: the
    /// answer does not wait for the store to be scheduled on the pool.
    @Test func answeredOnTheResolvingThread() async {
        let commits = Commits()
        let store = makeStore(commits)
        let answeredOn = Mutex<pthread_t?>(nil)
        store.submit(5) { _ in answeredOn.withLock { $0 = pthread_self() } }
        await waitUntil("the batch is handed to the commit hook") { commits.count == 1 }
        let resolved = await onThread { () -> (thread: pthread_t, answeredOn: pthread_t?, state: Int) in
            commits.resolve(0)
            return (pthread_self(), answeredOn.withLock { $0 }, store.currentState)
        }
        #expect(resolved.answeredOn == resolved.thread)
        #expect(resolved.state == 5)
        await waitUntil("the batch is delivered") { commits.delivered.withLock { $0 } == [5] }
    }

    /// A batch whose commit fails is never published; its senders learn why.
    @Test func failedCommitIsNotPublished() async {
        let commits = Commits()
        let store = makeStore(commits)
        let outcome = Mutex<DispatchOutcome?>(nil)
        store.submit(3) { result in outcome.withLock { $0 = result } }
        await waitUntil("the batch is handed to the commit hook") { commits.count == 1 }
        commits.resolve(0, failure: "no space left")
        await waitUntil("the sender is told") { outcome.withLock { $0 } != nil }
        #expect(outcome.withLock { $0 } == .journalFailed("no space left"))
        #expect(store.currentState == 0)
        #expect(commits.delivered.withLock { $0 }.isEmpty)
    }

    /// A closed store refuses a submitted action at once.
    @Test func closedStoreRefuses() {
        let store = makeStore(Commits())
        store.close()
        let outcome = Mutex<DispatchOutcome?>(nil)
        #expect(!store.submit(1) { result in outcome.withLock { $0 = result } })
        #expect(outcome.withLock { $0 } == .stopping)
    }
}
