import Synchronization
import SwitchyardStreams
import SwitchyardTestSupport
import SwitchyardTesting
import Testing

/// Issue 12 point 7 (streams): misuse of a subscription never crashes, a synchronous `send`
/// reports what it dropped, and a cancelled consumer ends at once.
@Suite(.timeLimit(.minutes(1)))
struct BroadcastMisuseTests {
    /// `s.merge(with: s)` gets every element twice: each iterator is a subscription.
    @Test func mergingASubscriptionWithItselfDeliversTwice() async {
        let broadcast = Broadcast<Int>()
        let subscription = broadcast.subscribe()
        let recorder = TestRecorder(subscription.merge(with: subscription))
        broadcast.send(1)
        broadcast.send(2)
        broadcast.finish()
        #expect(await recorder.waitForCompletion() == .finished)
        #expect(recorder.elements.sorted() == [1, 1, 2, 2])
    }

    /// Two tasks iterating one subscription concurrently both receive every element.
    @Test func twoTasksIteratingOneSubscription() async {
        let broadcast = Broadcast<Int>()
        let subscription = broadcast.subscribe()
        let first = TestRecorder(subscription)
        let second = TestRecorder(subscription)
        for value in 0..<100 { await broadcast.deliver(value) }
        broadcast.finish()
        #expect(await first.waitForCompletion() == .finished)
        #expect(await second.waitForCompletion() == .finished)
        #expect(first.elements == Array(0..<100))
        #expect(second.elements == Array(0..<100))
    }

    /// Iterating again after the first iterator is gone continues the same registration.
    @Test func sequentialIteratorsShareTheRegistration() async {
        let broadcast = Broadcast<Int>()
        let subscription = broadcast.subscribe()
        broadcast.send(contentsOf: [1, 2, 3])
        do {
            var iterator = subscription.makeAsyncIterator()
            #expect(await iterator.next() == 1)
        }
        #expect(broadcast.subscriberCount == 1)
        var again = subscription.makeAsyncIterator()
        #expect(await again.next() == 2)
    }

    /// `send` to a full `.suspendProducer` subscriber returns `false` and counts the drop;
    /// `deliver` would have waited.
    @Test func sendReportsADropForAFullSuspendingSubscriber() {
        let broadcast = Broadcast<Int>()
        let subscription = broadcast.subscribe(bufferSize: 2, overflow: .suspendProducer)
        #expect(broadcast.send(1))
        #expect(broadcast.send(2))
        #expect(!broadcast.send(3))
        #expect(!broadcast.send(contentsOf: [4, 5]))
        #expect(subscription.droppedCount == 3)
        broadcast.finish()
        #expect(!broadcast.send(6))
    }

    /// A consumer whose task is cancelled mid-batch gets nothing more of that batch.
    @Test func cancelledConsumerEndsAtOnce() async {
        let broadcast = Broadcast<Int>()
        let subscription = broadcast.subscribe()
        broadcast.send(contentsOf: Array(1...10))
        let seen = Mutex<[Int]>([])
        let consumer = Task {
            for await value in subscription {
                seen.withLock { $0.append(value) }
                if value == 2 { withUnsafeCurrentTask { $0?.cancel() } }
            }
        }
        await consumer.value
        #expect(seen.withLock { $0 } == [1, 2])
        #expect(broadcast.subscriberCount == 0)
    }

    /// Issue 34 point 3: a subscription cancelled while an iterator of it is still alive hands
    /// a new iterator nothing to wait for: `next()` returns nil at once instead of waiting on a
    /// fresh registration that no one will ever cancel.
    @Test func newIteratorOfACancelledSubscriptionEndsAtOnce() async {
        let broadcast = Broadcast<Int>()
        let subscription = broadcast.subscribe()
        var first = subscription.makeAsyncIterator()
        broadcast.send(1)
        #expect(await first.next() == 1)
        subscription.cancel()
        let second: Int?? = await withDeadline(10) {
            var second = subscription.makeAsyncIterator()
            broadcast.send(2)
            return await second.next()
        }
        #expect(second == .some(nil))
        #expect(await first.next() == nil)
        #expect(broadcast.subscriberCount == 0)
    }

    /// The same with no iterator alive: cancelled before it was ever iterated.
    @Test func cancelledBeforeIterationEndsAtOnce() async {
        let broadcast = Broadcast<Int>()
        let subscription = broadcast.subscribe()
        subscription.cancel()
        broadcast.send(1)
        var iterator = subscription.makeAsyncIterator()
        #expect(await iterator.next() == nil)
        #expect(broadcast.subscriberCount == 0)
    }
}
