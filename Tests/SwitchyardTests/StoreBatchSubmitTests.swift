import Synchronization
import SwitchyardTestSupport
import Testing
@testable import Switchyard
@testable import SwitchyardBus

/// The control socket's way into the store: every dispatch read in a turn goes in with one
/// call (``Store/send(contentsOf:rest:)`` with ``BatchRest/wait(report:)``), in order, and what
/// does not fit waits.
struct StoreBatchSubmitTests {
    /// A batch larger than the room there is: the rest waits in order, the caller is told so,
    /// a later sender goes behind it, and every action is answered with its sequence number.
    @Test(arguments: [(4, 10), (1, 3), (8, 8), (16, 5)])
    func batchesKeepTheirOrderAndWaitForRoom(capacity: Int, count: Int) async {
        let store = makeAppendingStore(capacity: capacity)
        let outcomes = Mutex<[DispatchOutcome]>([])
        let record: @Sendable (DispatchOutcome) -> Void = { outcome in outcomes.withLock { $0.append(outcome) } }
        let taken = store.send(contentsOf: Array(1...count), rest: .wait(report: record))
        // Nothing drains yet, so how many had to wait depends only on the room.
        #expect(taken == min(count, capacity))
        _ = store.submit(100, completion: record)
        store.startDrainer()
        await waitUntil("every action is answered") { outcomes.withLock { $0.count } == count + 1 }
        #expect(outcomes.withLock { $0 } == (1...UInt64(count + 1)).map { .dispatched($0) })
        #expect(store.currentState == Array(1...count) + [100])
        store.close()
    }

    /// An empty batch takes nothing and reports nothing.
    @Test func emptyBatch() {
        let store = makeAppendingStore(capacity: 2)
        #expect(store.send(contentsOf: [], rest: .wait { _ in Issue.record("an empty batch was answered") }) == 0)
        store.close()
    }

    /// A closed store refuses the whole batch, telling each action.
    @Test func closedStoreRefusesTheBatch() {
        let store = makeAppendingStore(capacity: 4)
        store.close()
        let outcomes = Mutex<[DispatchOutcome]>([])
        #expect(store.send(contentsOf: [1, 2, 3], rest: .wait { outcome in outcomes.withLock { $0.append(outcome) } }) == 0)
        #expect(outcomes.withLock { $0 } == [.stopping, .stopping, .stopping])
    }
}
