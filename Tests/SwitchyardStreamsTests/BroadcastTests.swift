@testable import SwitchyardStreams
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
