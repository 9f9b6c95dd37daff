import Testing

@testable import Switchyard
@testable import SwitchyardBus

/// `Store.send(contentsOf:)` handing the rest back (``BatchRest/handBack``): a run of actions
/// into the inbox under one lock, as far as there is room, for a bridge that receives many in
/// one read.
struct StoreBatchSendTests {
    private static func listStore(capacity: Int) -> Store<[Int], Int> {
        Store(initialState: [], reducer: { (state: inout [Int], action: Int) in state.append(action) },
              middleware: [], options: StoreOptions(inboxCapacity: capacity))
    }

    /// An empty inbox takes as many as it holds; the rest, sent again or dispatched one by one,
    /// are reduced after them in order, and nothing counts as rejected.
    @Test func takesWhatFitsAndTheRestFollowInOrder() async {
        let store = Self.listStore(capacity: 4)
        let values = Array(0..<200)
        let first = store.send(contentsOf: values)
        #expect(first == 4)
        var sent = first
        while sent < values.count {
            sent += store.send(contentsOf: values[sent...])
            if sent < values.count {
                await store.dispatch(values[sent])
                sent += 1
            }
        }
        await store.dispatch(200)
        #expect(store.currentState == Array(0...200))
        #expect(store.statistics.rejected == 0)
    }

    /// A closed store takes none.
    @Test func closedStoreTakesNone() {
        let store = Self.listStore(capacity: 8)
        store.close()
        #expect(store.send(contentsOf: [1, 2, 3]) == 0)
        #expect(store.send(contentsOf: [Int]()) == 0)
    }

    /// While admission is paused or senders wait for room, nothing is taken, so a run never
    /// overtakes a sender that came first.
    @Test func waitsBehindPausedAndParkedSenders() {
        let inbox = StoreInbox<Int>(capacity: 2, firstSequence: 1)
        inbox.changePauses(by: 1)
        #expect(inbox.append(contentsOf: [1])?.taken == 0)
        let parked = inbox.submit(.init(action: 2, completion: nil), waiterID: 1, admitted: nil)
        guard case .parked = parked else {
            Issue.record("a sender was admitted while paused")
            return
        }
        #expect(inbox.append(contentsOf: [1])?.taken == 0)
        inbox.changePauses(by: -1)
        // The parked sender was admitted; the run comes after it, and only as far as there is room.
        #expect(inbox.append(contentsOf: [3, 4, 5])?.taken == 1)
        var spare: [StoreInbox<Int>.Entry] = []
        #expect(inbox.takeBatch(spare: &spare)?.map(\.action) == [2, 3])
        #expect(inbox.append(contentsOf: [4, 5, 6])?.taken == 2)
        #expect(inbox.takeBatch(spare: &spare)?.map(\.sequence) == [3, 4])
    }

    /// The rest of a batch that waits (the control socket's) holds back a later batch that
    /// hands its rest back (the bridge's), so neither overtakes the other.
    @Test func waitingRestHoldsLaterBatchesBack() {
        let inbox = StoreInbox<Int>(capacity: 2, firstSequence: 1)
        let completion = StoreCompletion.outcome { _ in }
        var entries = [1, 2, 3].map { StoreInbox<Int>.Entry(action: $0, completion: completion) }
        #expect(inbox.append(moving: &entries)?.taken == 2)
        #expect(inbox.append(contentsOf: [4])?.taken == 0)
        var spare: [StoreInbox<Int>.Entry] = []
        #expect(inbox.takeBatch(spare: &spare)?.map(\.action) == [1, 2])
        // Taking the batch admitted the parked 3; 4 now goes behind it.
        #expect(inbox.append(contentsOf: [4])?.taken == 1)
        #expect(inbox.takeBatch(spare: &spare)?.map(\.action) == [3, 4])
    }
}
