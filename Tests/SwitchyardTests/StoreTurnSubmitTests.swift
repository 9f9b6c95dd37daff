import Synchronization
import SwitchyardTestSupport
import Testing
@testable import Switchyard
@testable import SwitchyardBus

/// The control socket's loop turn into the store: every connection's dispatches go in with
/// one call (``Store/send(_:runs:)``), in order, each reported to its own connection, and what
/// does not fit waits in order.
struct StoreTurnSubmitTests {
    /// Three senders' runs in one hand-over larger than the room there is: each sender hears of
    /// exactly its own actions, with their sequence numbers in hand-over order, and a later
    /// sender goes behind the ones that waited.
    @Test(arguments: [(2, [3, 1, 4]), (8, [3, 1, 4]), (1, [1, 1, 1]), (16, [5, 0, 2])])
    func runsKeepTheirOrderAndTheirSenders(capacity: Int, lengths: [Int]) async {
        let store = makeAppendingStore(capacity: capacity)
        let outcomes = Mutex<[Int: [DispatchOutcome]]>([:])
        var actions: [Int] = []
        var runs: [DispatchRun] = []
        for (sender, length) in lengths.enumerated() {
            actions += (0..<length).map { sender * 100 + $0 }
            let report: @Sendable (DispatchOutcome) -> Void = { outcome in outcomes.withLock { $0[sender, default: []].append(outcome) } }
            runs.append(DispatchRun(end: actions.count, report: report))
        }
        let total = actions.count
        #expect(store.send(actions, runs: runs) == min(total, capacity))
        let later = lengths.count
        _ = store.submit(999) { outcome in outcomes.withLock { $0[later, default: []].append(outcome) } }
        store.startDrainer()
        let answered: @Sendable () -> Int = { outcomes.withLock { $0.values.reduce(0) { $0 + $1.count } } }
        await waitUntil("every action is answered") { answered() == total + 1 }
        var next: UInt64 = 1
        for (sender, length) in lengths.enumerated() {
            let expected: [DispatchOutcome] = (0..<UInt64(length)).map { .dispatched(next + $0) }
            #expect(outcomes.withLock { $0[sender] ?? [] } == expected)
            next += UInt64(length)
        }
        #expect(outcomes.withLock { $0[later] ?? [] } == [.dispatched(next)])
        #expect(store.currentState == actions + [999])
    }

    /// A closed store takes none and reports every action of every run as stopping.
    @Test func closedStoreReportsEveryAction() {
        let store = makeAppendingStore(capacity: 4)
        store.close()
        let outcomes = Mutex<[DispatchOutcome]>([])
        let record: @Sendable (DispatchOutcome) -> Void = { outcome in outcomes.withLock { $0.append(outcome) } }
        #expect(store.send([1, 2, 3], runs: [DispatchRun(end: 2, report: record), DispatchRun(end: 3, report: record)]) == 0)
        #expect(outcomes.withLock { $0 } == [.stopping, .stopping, .stopping])
    }
}
