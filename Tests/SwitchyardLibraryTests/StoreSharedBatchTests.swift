import Switchyard
import SwitchyardTestSupport
import Testing

/// The store hands every `actions` subscriber slices of one shared array per reduced batch:
/// each overflow policy must still keep exactly what it promises when its buffer ends in the
/// middle of a batch, and an abandoned iterator must give back the rest of every slice it took.
struct StoreSharedBatchTests {
    /// Sends 0..<count in batches of varying size (single dispatches between bursts of enqueues)
    /// and returns once the last one has been delivered to every subscriber.
    private func sendInVaryingBatches(_ store: Store<Int, Int>, count: Int) async {
        for value in 0..<count {
            if value % 7 == 0 {
                await store.dispatch(value)
            } else {
                await store.enqueue(value)
            }
        }
        await store.dispatch(count)
    }

    private func read(_ actions: StoreActions<Int>, count: Int) async -> [Int]? {
        await withDeadline {
            var iterator = actions.makeAsyncIterator()
            var values: [Int] = []
            while values.count < count, let value = await iterator.next() { values.append(value) }
            return values
        }
    }

    @Test func everyPolicyKeepsWhatItPromisesAcrossBatches() async {
        let store = Store(initialState: 0, reducer: { (sum: inout Int, action: Int) in sum &+= action },
                          options: StoreOptions(inboxCapacity: 8, log: { _ in }))
        let all = store.actions(name: "all", bufferSize: 1000)
        let oldest = store.actions(name: "oldest", bufferSize: 4, overflow: .dropOldest)
        let newest = store.actions(name: "newest", bufferSize: 4, overflow: .dropNewest)
        let latest = store.actions(name: "latest", overflow: .latest)
        await sendInVaryingBatches(store, count: 50)

        #expect(await read(all, count: 51) == Array(0...50))
        #expect(await read(oldest, count: 4) == [47, 48, 49, 50])
        #expect(oldest.droppedCount == 47)
        #expect(await read(newest, count: 4) == [0, 1, 2, 3])
        #expect(newest.droppedCount == 47)
        #expect(await read(latest, count: 1) == [50])
        #expect(latest.droppedCount == 50)
    }

    @Test func abandonedIteratorGivesBackTheRestOfEverySlice() async {
        let store = Store(initialState: 0, reducer: { (sum: inout Int, action: Int) in sum &+= action },
                          options: StoreOptions(inboxCapacity: 8))
        let partial = store.actions(name: "partial", bufferSize: 100)
        let other = store.actions(name: "other", bufferSize: 100)
        await sendInVaryingBatches(store, count: 20)

        do {
            // Freed at the end of this scope with 5...20 still taken: it must put them back.
            var first = partial.makeAsyncIterator()
            var head: [Int] = []
            for _ in 0..<5 { if let value = await first.next() { head.append(value) } }
            #expect(head == [0, 1, 2, 3, 4])
        }
        #expect(await read(partial, count: 16) == Array(5...20))
        #expect(await read(other, count: 21) == Array(0...20))
        #expect(store.statistics.subscribers.allSatisfy { $0.buffered == 0 })
    }
}
