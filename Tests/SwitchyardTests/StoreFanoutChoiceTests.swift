import Synchronization
import SwitchyardTestSupport
import Testing
@testable import Switchyard

/// Why the store's `actions` subscriptions keep their own fan-out instead of a `Broadcast`
/// (issue 35; numbers in docs/performance-history.md): the same lossless subscriber, with a
/// buffer of one, reacts to an action by sending two and dispatching a third. On the store's
/// fan-out it gets all four, because the store never waits for a subscriber whose own task is
/// inside `dispatch`; on a `Broadcast` fed by the store (a ``BatchSink`` delivering each batch)
/// the store waits for the subscriber's room while the subscriber waits for the store, until
/// the subscription is cancelled.
struct StoreFanoutChoiceTests {
    /// Feeds a broadcast each published batch, counting deliveries begun and finished.
    private final class BroadcastSink: BatchSink {
        let broadcast: Broadcast<Int>
        let delivering = Atomic<Int>(0)

        init(broadcast: Broadcast<Int>) { self.broadcast = broadcast }

        func commit(_ batch: ReducedBatch<Int, Int, Never>) -> BatchCommit<Never>? { nil }

        func deliver(_ batch: ReducedBatch<Int, Int, Never>) async {
            delivering.add(1, ordering: .relaxed)
            await broadcast.deliver(contentsOf: batch.actions)
            delivering.subtract(1, ordering: .relaxed)
        }
    }

    /// Whether the reacting subscriber is inside its `dispatch`.
    private final class Reacting: Sendable {
        let now = Atomic<Bool>(false)
        var value: Bool { now.load(ordering: .relaxed) }
    }

    /// Reads `actions` until it has four, reacting to the first by sending 10 and 11 and
    /// dispatching 12; `reacting` is set while that dispatch is under way.
    private func react<Actions: AsyncSequence & Sendable>(
        to actions: Actions, on store: Store<Int, Int>, reacting: Reacting
    ) -> Task<[Int], Never> where Actions.Element == Int, Actions.Failure == Never {
        Task {
            var seen: [Int] = []
            for await action in actions {
                seen.append(action)
                if action == 1 {
                    reacting.now.store(true, ordering: .relaxed)
                    store.send(10)
                    store.send(11)
                    await store.dispatch(12)
                    reacting.now.store(false, ordering: .relaxed)
                }
                if seen.count == 4 { break }
            }
            return seen
        }
    }

    @Test func storeActionsNeverWaitForASubscriberDispatchingBack() async {
        let store = Store<Int, Int>(initialState: 0, reducer: { $0 += $1 })
        let reacting = Reacting()
        let reader = react(to: store.actions(name: "reactor", bufferSize: 1), on: store, reacting: reacting)
        store.send(1)
        #expect(await withDeadline { await reader.value } == [1, 10, 11, 12])
        #expect(store.currentState == 34)
    }

    @Test func broadcastWaitsForASubscriberDispatchingBack() async {
        let broadcast = Broadcast<Int>()
        let sink = BroadcastSink(broadcast: broadcast)
        let subscription = broadcast.subscribe(bufferSize: 1, overflow: .suspendProducer)
        let store = Store<Int, Int>(initialState: 0, reducer: { $0 += $1 }, middleware: [], options: StoreOptions(),
                                    firstSequence: 1)
        store.startDrainer(into: sink)
        let reacting = Reacting()
        let reader = react(to: subscription, on: store, reacting: reacting)
        store.send(1)
        // The subscriber is inside `dispatch(12)`, its one slot is full and the store is still
        // delivering to it: neither can go on.
        await waitUntil("the store and the subscriber wait for each other") {
            reacting.value && subscription.bufferedCount == 1 && sink.delivering.load(ordering: .relaxed) > 0
        }
        subscription.cancel()
        let seen = await withDeadline { await reader.value }
        #expect(seen == [1])
        #expect(store.currentState == 34)
    }
}
