import Synchronization
import SwitchyardTestSupport
import Testing
@testable import Switchyard

/// What a store promises the ``BatchSink`` it is given: per batch, stamp before reducing, commit
/// after, delivery once durable and before the store's own subscribers; the next batch is
/// reduced while one is committed, never more; a failed batch is never delivered.
struct BatchSinkTests {
    /// Records every call, and keeps each commit for the test to resolve.
    private final class RecordingSink: BatchSink {
        let events = Mutex<[String]>([])
        let commits = Mutex<[BatchCommit<String>]>([])
        /// Run by the commits in turn, the first by the first commit: a send made there is in
        /// the inbox when the store looks for its next batch, before it waits for this one.
        let duringCommits = Mutex<[@Sendable () -> Void]>([])

        /// Makes each action `action * 100 + sequence`, so the test sees the reducer got the
        /// stamped action.
        func stamp(_ entries: inout [StoreInbox<Int>.Entry]) {
            record("stamp \(entries.map(\.action))")
            for index in entries.indices {
                entries[index].action = entries[index].action * 100 + Int(entries[index].sequence)
            }
        }

        func commit(_ batch: ReducedBatch<Int, Int, String>) -> BatchCommit<String>? {
            record("commit \(batch.actions) state \(batch.state)")
            let commit = BatchCommit<String>()
            commits.withLock { $0.append(commit) }
            duringCommits.withLock { $0.isEmpty ? nil : $0.removeFirst() }?()
            return commit
        }

        func deliver(_ batch: ReducedBatch<Int, Int, String>) async {
            record("deliver \(batch.actions) state \(batch.state) written \(batch.written ?? "nil")")
        }

        func record(_ event: String) { events.withLock { $0.append(event) } }
        var count: Int { commits.withLock { $0.count } }
        func resolve(_ index: Int, failure: String? = nil, written: String? = nil) {
            commits.withLock { $0[index] }.resolve(failure: failure, written: written)
        }
    }

    private func makeStore(_ sink: RecordingSink) -> Store<Int, Int> {
        let store = Store<Int, Int>(initialState: 0, reducer: { $0 += $1 }, middleware: [], options: StoreOptions(),
                                    firstSequence: 1)
        store.startDrainer(into: sink)
        return store
    }

    /// Stamped, reduced, committed; the next batch is reduced and committed meanwhile but a
    /// third waits; once durable the state is published, the sink gets the batch with what
    /// was written for it, and only then the store's `actions` subscribers.
    @Test func batchesFlowInOrderAtMostTwoUnderWay() async {
        let sink = RecordingSink()
        let store = makeStore(sink)
        let subscription = store.actions(name: "test")
        // Whether the sink had the action's batch when the subscriber got the action.
        let consumer = Task {
            var deliveredFirst: [Bool] = []
            for await action in subscription {
                deliveredFirst.append(sink.events.withLock { $0.contains { $0.hasPrefix("deliver [\(action)]") } })
                if action == 303 { break }
            }
            return deliveredFirst
        }
        sink.duringCommits.withLock { $0 = [{ store.submit(2) { _ in } }, { store.submit(3) { _ in } }] }
        store.submit(1) { _ in }
        await waitUntil("the second batch is committed while the first is not durable") { sink.count == 2 }
        await waitUntil("the third waits in the inbox") { store.statistics.queued == 1 }
        #expect(sink.count == 2)
        #expect(store.currentState == 0)
        sink.resolve(0, written: "line 1")
        await waitUntil("the third batch is committed once the first is published") { sink.count == 3 }
        sink.resolve(1, written: "line 2")
        sink.resolve(2)
        #expect(await consumer.value == [true, true, true])
        #expect(store.currentState == 101 + 202 + 303)
        #expect(sink.events.withLock { $0 } == [
            "stamp [1]", "commit [101] state 101",
            "stamp [2]", "commit [202] state 303",
            "deliver [101] state 101 written line 1",
            "stamp [3]", "commit [303] state 606",
            "deliver [202] state 303 written line 2",
            "deliver [303] state 606 written nil",
        ])
    }

    /// Batches whose commit fails are answered with the failure and never reach the sink's
    /// delivery, the subscribers or the published state (a journal fails every batch after
    /// its first failure, so both fail here).
    @Test func failedBatchIsNeverDelivered() async {
        let sink = RecordingSink()
        let store = makeStore(sink)
        let outcomes = Mutex<[DispatchOutcome]>([])
        sink.duringCommits.withLock { $0 = [{ store.submit(2) { outcome in outcomes.withLock { $0.append(outcome) } } }] }
        store.submit(1) { outcome in outcomes.withLock { $0.append(outcome) } }
        await waitUntil("the second batch is committed before the first resolves") { sink.count == 2 }
        sink.resolve(0, failure: "disk full", written: "never seen")
        sink.resolve(1, failure: "disk full")
        await waitUntil("both senders are answered") { outcomes.withLock { $0.count } == 2 }
        await waitUntil("the store is idle") { store.isIdle }
        #expect(outcomes.withLock { $0 } == [.journalFailed("disk full"), .journalFailed("disk full")])
        #expect(sink.events.withLock { $0.filter { $0.hasPrefix("deliver") } }.isEmpty)
        #expect(store.currentState == 0)
    }
}
