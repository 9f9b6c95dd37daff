@testable import SwitchyardStreams
import SwitchyardTestSupport
import Testing

struct BroadcastLifecycleTests {
    /// `cancel` ends only that subscription; a waiting iterator returns nil and the others go on.
    @Test func cancelEndsOnlyThatSubscription() async {
        let broadcast = Broadcast<Int>()
        let cancelled = broadcast.subscribe()
        let kept = broadcast.subscribe()
        broadcast.send(1)
        cancelled.cancel()
        cancelled.cancel()
        #expect(broadcast.subscriberCount == 1)
        #expect(cancelled.bufferedCount == 0)
        broadcast.send(2)
        broadcast.finish()
        #expect(await cancelled.collect() == [])
        #expect(await kept.collect() == [1, 2])
    }

    /// Cancelling the consuming task ends its subscription, unregisters it, and leaves the others.
    @Test func cancellingTheConsumingTaskUnregisters() async {
        let broadcast = Broadcast<Int>()
        let other = broadcast.subscribe()
        let consumer = Task {
            var received: [Int] = []
            for await element in broadcast {
                received.append(element)
            }
            return received
        }
        await waitUntil("the consumer waits") { broadcast.storage.waitingConsumers == 1 && broadcast.subscriberCount == 2 }
        broadcast.send(1)
        await waitUntil("the consumer took the element and waits again") {
            broadcast.storage.waitingConsumers == 1 && broadcast.storage.state.withLock { $0.subscribers.count { $0.buffer.isEmpty } } == 1
        }
        consumer.cancel()
        #expect(await consumer.value == [1])
        #expect(broadcast.subscriberCount == 1)
        broadcast.send(2)
        broadcast.finish()
        #expect(await other.collect() == [1, 2])
    }

    /// A subscriber keeps receiving in order after subscribers registered before it leave.
    @Test func subscriberSurvivesEarlierSubscribersLeaving() async {
        let broadcast = Broadcast<Int>()
        let first = broadcast.subscribe()
        let second = broadcast.subscribe()
        let last = broadcast.subscribe()
        var iterator = last.makeAsyncIterator()
        broadcast.send(1)
        #expect(await iterator.next() == 1)
        first.cancel()
        second.cancel()
        broadcast.send(2)
        #expect(await iterator.next() == 2)
        let late = broadcast.subscribe()
        broadcast.send(3)
        broadcast.finish()
        #expect(await iterator.next() == 3)
        #expect(await iterator.next() == nil)
        #expect(await late.collect() == [3])
    }

    /// `cancel` takes effect at the next element, even in the middle of a taken batch.
    @Test func cancelStopsInTheMiddleOfABatch() async {
        let broadcast = Broadcast<Int>()
        let subscription = broadcast.subscribe()
        broadcast.send(contentsOf: 1...5)
        var iterator = subscription.makeAsyncIterator()
        #expect(await iterator.next() == 1)
        subscription.cancel()
        #expect(await iterator.next() == nil)
        #expect(await iterator.next() == nil)
    }

    /// An iterator of a cancelled task returns nil even with elements buffered.
    @Test func cancelledTaskStopsBeforeBufferedElements() async {
        let broadcast = Broadcast<Int>()
        let subscription = broadcast.subscribe()
        broadcast.send(contentsOf: [1, 2, 3])
        let consumer = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            var iterator = subscription.makeAsyncIterator()
            return await iterator.next()
        }
        #expect(await consumer.value == nil)
        #expect(broadcast.subscriberCount == 0)
    }

    /// Dropping a subscription, or the iterator made by the broadcast itself, unregisters it.
    @Test func droppingSubscriptionOrIteratorUnregisters() async {
        let broadcast = Broadcast<Int>()
        do {
            let subscription = broadcast.subscribe()
            #expect(broadcast.subscriberCount == 1)
            broadcast.send(1)
            #expect(subscription.bufferedCount == 1)
        }
        #expect(broadcast.subscriberCount == 0)
        do {
            var iterator = broadcast.makeAsyncIterator()
            broadcast.send(2)
            #expect(await iterator.next() == 2)
            #expect(broadcast.subscriberCount == 1)
        }
        #expect(broadcast.subscriberCount == 0)
    }

    /// Leaving a loop early and iterating the same subscription again continues with the next
    /// element: nothing the first iterator took is lost.
    @Test func iteratingAgainAfterBreakContinues() async {
        let broadcast = Broadcast<Int>()
        let subscription = broadcast.subscribe()
        broadcast.send(contentsOf: 1...5)
        for await element in subscription where element == 2 {
            break
        }
        broadcast.send(6)
        broadcast.finish()
        #expect(await subscription.collect() == [3, 4, 5, 6])
    }

    /// Dropping the last reference to a broadcast finishes its subscriptions after they drain.
    @Test func droppingTheBroadcastFinishesIt() async {
        var broadcast: Broadcast<Int>? = Broadcast()
        let subscription = broadcast!.subscribe()
        broadcast!.send(7)
        broadcast = nil
        #expect(await subscription.collect() == [7])
    }
}
