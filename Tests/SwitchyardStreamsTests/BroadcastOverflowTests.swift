@testable import SwitchyardStreams
import SwitchyardTestSupport
import Testing

struct BroadcastOverflowTests {
    /// What a subscriber of buffer size 2 keeps of `1...5` sent synchronously, per policy:
    /// `.dropNewest` the first elements, `.dropOldest` the last, and `.suspendProducer` (a
    /// synchronous send cannot wait) the first; each counts the ones it lost.
    @Test(arguments: [
        (OverflowPolicy.dropNewest, [1, 2]),
        (.dropOldest, [4, 5]),
        (.suspendProducer, [1, 2]),
    ])
    func fullBufferKeepsAndCounts(policy: OverflowPolicy, kept: [Int]) async {
        let broadcast = Broadcast<Int>()
        let subscription = broadcast.subscribe(bufferSize: 2, overflow: policy)
        broadcast.send(contentsOf: 1...5)
        broadcast.finish()
        #expect(await subscription.collect() == kept)
        #expect(subscription.droppedCount == 3)
    }

    /// `.dropOldest` stays correct and bounded over many more drops than its capacity.
    @Test func dropOldestOverManyDrops() async {
        let broadcast = Broadcast<Int>()
        let subscription = broadcast.subscribe(bufferSize: 3, overflow: .dropOldest)
        for element in 0..<10_000 {
            broadcast.send(element)
        }
        #expect(subscription.bufferedCount == 3)
        broadcast.finish()
        #expect(await subscription.collect() == [9_997, 9_998, 9_999])
        #expect(subscription.droppedCount == 9_997)
    }

    /// `.latest` keeps only the newest element whatever the buffer size.
    @Test func latestKeepsOnlyTheNewest() async {
        let broadcast = Broadcast<Int>()
        let subscription = broadcast.subscribe(bufferSize: 100, overflow: .latest)
        broadcast.send(contentsOf: 1...5)
        #expect(subscription.bufferedCount == 1)
        var iterator = subscription.makeAsyncIterator()
        #expect(await iterator.next() == 5)
        broadcast.send(6)
        broadcast.send(7)
        broadcast.finish()
        #expect(await iterator.next() == 7)
        #expect(await iterator.next() == nil)
        #expect(subscription.droppedCount == 5)
    }

    /// `deliver` waits while a `.suspendProducer` subscriber is full and loses nothing.
    @Test func deliverWaitsForRoomAndLosesNothing() async {
        let broadcast = Broadcast<Int>()
        let subscription = broadcast.subscribe(bufferSize: 2)
        let producer = Task {
            for element in 1...5 {
                await broadcast.deliver(element)
            }
            broadcast.finish()
        }
        await waitUntil("the producer waits for room") { broadcast.storage.waitingProducers == 1 }
        #expect(subscription.bufferedCount == 2)
        #expect(await subscription.collect() == [1, 2, 3, 4, 5])
        await producer.value
        #expect(subscription.droppedCount == 0)
    }

    /// A batch `deliver` larger than the buffer arrives whole and in order.
    @Test func deliverBatchLargerThanBuffer() async {
        let broadcast = Broadcast<Int>()
        let small = broadcast.subscribe(bufferSize: 3)
        let large = broadcast.subscribe()
        let producer = Task {
            await broadcast.deliver(contentsOf: Array(0..<50))
            await broadcast.deliver(contentsOf: Array(50..<100))
            broadcast.finish()
        }
        #expect(await small.collect() == Array(0..<100))
        #expect(await large.collect() == Array(0..<100))
        await producer.value
    }

    /// Cancelling a producer waiting in `deliver` stops the wait; the element is dropped and
    /// counted for the full subscriber only.
    @Test func cancelledDeliverDropsOnlyForTheFullSubscriber() async {
        let broadcast = Broadcast<Int>()
        let full = broadcast.subscribe(bufferSize: 1)
        let roomy = broadcast.subscribe()
        broadcast.send(1)
        let producer = Task { await broadcast.deliver(2) }
        await waitUntil("the producer waits for room") { broadcast.storage.waitingProducers == 1 }
        producer.cancel()
        await producer.value
        broadcast.finish()
        #expect(await full.collect() == [1])
        #expect(full.droppedCount == 1)
        #expect(await roomy.collect() == [1, 2])
        #expect(roomy.droppedCount == 0)
    }

    /// A producer already cancelled does not wait for a full subscriber but still delivers where
    /// there is room.
    @Test func deliverFromCancelledTaskDoesNotWait() async {
        let broadcast = Broadcast<Int>()
        let full = broadcast.subscribe(bufferSize: 1)
        let roomy = broadcast.subscribe()
        broadcast.send(1)
        await Task {
            withUnsafeCurrentTask { $0?.cancel() }
            await broadcast.deliver(2)
        }.value
        broadcast.finish()
        #expect(await full.collect() == [1])
        #expect(full.droppedCount == 1)
        #expect(await roomy.collect() == [1, 2])
    }

    /// Elements of a producer waiting at `finish` are still delivered before the end.
    @Test func finishKeepsElementsOfWaitingProducers() async {
        let (broadcast, subscription, producer) = await producerWaitingForAFullSubscriber()
        broadcast.finish()
        #expect(await subscription.collect() == [1, 2])
        await producer.value
    }

    /// Cancelling the subscriber a producer waits for releases the producer.
    @Test func cancellingTheFullSubscriberReleasesTheProducer() async {
        let (broadcast, subscription, producer) = await producerWaitingForAFullSubscriber()
        subscription.cancel()
        await producer.value
        #expect(broadcast.subscriberCount == 0)
    }

    /// A slow subscriber that drops never holds back a producer or the other subscribers.
    @Test func droppingSlowSubscriberDoesNotSlowOthers() async {
        let broadcast = Broadcast<Int>()
        let slow = broadcast.subscribe(bufferSize: 1, overflow: .dropNewest)
        let fast = broadcast.subscribe(bufferSize: 4)
        let consumer = Task { await fast.collect() }
        for element in 0..<1_000 {
            await broadcast.deliver(element)
        }
        broadcast.finish()
        #expect(await consumer.value == Array(0..<1_000))
        #expect(slow.bufferedCount == 1)
        #expect(slow.droppedCount == 999)
    }

    /// A broadcast whose one subscriber (of buffer size 1) holds `1`, and a producer waiting
    /// for room there to deliver `2`.
    private func producerWaitingForAFullSubscriber() async -> (Broadcast<Int>, Broadcast<Int>.Subscription, Task<Void, Never>) {
        let broadcast = Broadcast<Int>()
        let subscription = broadcast.subscribe(bufferSize: 1)
        broadcast.send(1)
        let producer = Task { await broadcast.deliver(2) }
        await waitUntil("the producer waits for room") { broadcast.storage.waitingProducers == 1 }
        return (broadcast, subscription, producer)
    }
}
