@testable import SwitchyardStreams
import SwitchyardTestSupport
import Testing

struct BroadcastTests {
    /// A subscriber sees only elements sent after it subscribed.
    @Test func newSubscriberSeesNextSendWithoutReplay() async {
        let broadcast = Broadcast<Int>()
        broadcast.send(1)
        let subscription = broadcast.subscribe()
        broadcast.send(2)
        broadcast.send(3)
        broadcast.finish()
        #expect(await subscription.collect() == [2, 3])
    }

    /// Every subscriber receives every element in sending order.
    @Test func everySubscriberReceivesEveryElementInOrder() async {
        let broadcast = Broadcast<Int>()
        let first = broadcast.subscribe()
        let second = broadcast.subscribe(bufferSize: 8, overflow: .dropOldest)
        broadcast.send(contentsOf: 0..<5)
        broadcast.send(5)
        broadcast.finish()
        #expect(await first.collect() == Array(0..<6))
        #expect(await second.collect() == Array(0..<6))
    }

    /// `finish` ends a subscription only after it drained its buffer; later sends are ignored.
    @Test func finishDrainsThenEndsAndIgnoresLaterSends() async {
        let broadcast = Broadcast<String>()
        let subscription = broadcast.subscribe()
        broadcast.send("a")
        broadcast.send("b")
        broadcast.finish()
        broadcast.finish()
        broadcast.send("c")
        await broadcast.deliver("d")
        var iterator = subscription.makeAsyncIterator()
        #expect(await iterator.next() == "a")
        #expect(await iterator.next() == "b")
        #expect(await iterator.next() == nil)
        #expect(await iterator.next() == nil)
        #expect(broadcast.subscriberCount == 0)
    }

    /// A subscriber registered after `finish` ends at once.
    @Test func subscribeAfterFinishEndsAtOnce() async {
        let broadcast = Broadcast<Int>()
        broadcast.finish()
        let subscription = broadcast.subscribe()
        #expect(broadcast.subscriberCount == 0)
        #expect(await subscription.collect() == [])
    }

    /// `finish` wakes every iterator suspended waiting for elements.
    @Test func finishWakesEveryWaitingIterator() async {
        let broadcast = Broadcast<Int>()
        let subscriptions = (0..<3).map { _ in broadcast.subscribe() }
        await withTaskGroup(of: [Int].self) { group in
            for subscription in subscriptions {
                group.addTask { await subscription.collect() }
            }
            await waitUntil("all three consumers wait") { broadcast.storage.waitingConsumers == 3 }
            broadcast.finish()
            for await elements in group {
                #expect(elements == [])
            }
        }
    }

    /// A send made from inside a subscriber's loop is queued behind the current element, never
    /// handled inside it.
    @Test func sendFromInsideSubscriberIsQueuedNotNested() async {
        let broadcast = Broadcast<Int>()
        let subscription = broadcast.subscribe()
        broadcast.send(1)
        var events: [String] = []
        for await element in subscription {
            events.append("begin \(element)")
            if element < 3 {
                broadcast.send(element + 1)
            } else {
                broadcast.finish()
            }
            events.append("end \(element)")
        }
        #expect(events == ["begin 1", "end 1", "begin 2", "end 2", "begin 3", "end 3"])
    }

    /// `bufferedCount` counts elements not yet taken; `droppedCount` starts at zero.
    @Test func countersReportBufferedAndDropped() async {
        let broadcast = Broadcast<Int>()
        let subscription = broadcast.subscribe(bufferSize: 4)
        broadcast.send(contentsOf: 1...3)
        #expect(subscription.bufferedCount == 3)
        #expect(subscription.droppedCount == 0)
        var iterator = subscription.makeAsyncIterator()
        #expect(await iterator.next() == 1)
        #expect(subscription.bufferedCount == 0)
    }

    /// `deliver` with room everywhere and an iterator with buffered elements never suspend: a job
    /// queued on the same actor cannot run in between.
    @Test func fastPathsNeverSuspend() async {
        let probe = SuspensionProbe()
        #expect(await probe.deliversAndIteratesWithoutInterleaving() == false)
        #expect(await probe.yieldInterleaves() == true)
    }

    /// Two iterators waiting on one subscription at once stop the program with a message
    /// Point 7: a subscription iterated by two tasks at once does not crash; the second
    /// iterator is a registration of its own, and both receive every later element.
    @Test func twoConcurrentConsumersEachGetEverything() async {
        let broadcast = Broadcast<Int>()
        let subscription = broadcast.subscribe()
        var first = subscription.makeAsyncIterator()
        var second = subscription.makeAsyncIterator()
        #expect(broadcast.subscriberCount == 2)
        broadcast.send(1)
        broadcast.send(2)
        broadcast.finish()
        #expect(await first.next() == 1)
        #expect(await second.next() == 1)
        #expect(await first.next() == 2)
        #expect(await second.next() == 2)
        #expect(await first.next() == nil)
        #expect(await second.next() == nil)
    }

    /// A buffer size below one is rejected with a message instead of creating a useless subscriber.
    @Test func bufferSizeBelowOneIsRejected() async {
        await #expect(processExitsWith: .failure) {
            _ = Broadcast<Int>().subscribe(bufferSize: 0)
        }
        await #expect(processExitsWith: .failure) {
            _ = CurrentValue(0).subscribe(bufferSize: -1, overflow: .dropNewest)
        }
    }
}
