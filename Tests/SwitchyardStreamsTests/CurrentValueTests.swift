@testable import SwitchyardStreams
import SwitchyardTestSupport
import Testing

struct CurrentValueTests {
    struct Failure: Error, Equatable {}

    /// `value` starts at the initial value and follows `send`.
    @Test func valueFollowsSend() {
        let current = CurrentValue("a")
        #expect(current.value == "a")
        current.send("b")
        #expect(current.value == "b")
    }

    /// A subscriber receives the current value first, then every later value.
    @Test func subscriberReceivesCurrentThenLaterValues() async {
        let current = CurrentValue(1)
        current.send(2)
        let subscription = current.subscribe(bufferSize: 8, overflow: .dropNewest)
        current.send(3)
        current.send(4)
        current.finish()
        #expect(await subscription.collect() == [2, 3, 4])
    }

    /// By default a slow subscriber sees the latest value, never a backlog.
    @Test func defaultSubscriberCoalescesToLatest() async {
        let current = CurrentValue(0)
        var iterator = current.makeAsyncIterator()
        for value in 1...100 {
            current.send(value)
        }
        #expect(await iterator.next() == 100)
        current.send(101)
        current.finish()
        #expect(await iterator.next() == 101)
        #expect(await iterator.next() == nil)
    }

    /// `update` is an atomic read-modify-write: concurrent increments lose nothing.
    @Test func concurrentUpdatesLoseNothing() async {
        let current = CurrentValue(0)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    for _ in 0..<1_000 {
                        current.update { $0 += 1 }
                    }
                }
            }
        }
        #expect(current.value == 4_000)
    }

    /// `update` returns the body's result and notifies subscribers of the new value.
    @Test func updateReturnsResultAndNotifies() async {
        let current = CurrentValue([1])
        let subscription = current.subscribe(bufferSize: 4, overflow: .dropNewest)
        let count = current.update { values -> Int in
            values.append(2)
            return values.count
        }
        #expect(count == 2)
        current.finish()
        #expect(await subscription.collect() == [[1], [1, 2]])
    }

    /// A throwing `update` rethrows; its changes before the throw stay and are sent.
    @Test func throwingUpdateRethrowsAndKeepsChanges() async {
        let current = CurrentValue(1)
        let subscription = current.subscribe(bufferSize: 4, overflow: .dropNewest)
        #expect(throws: Failure()) {
            try current.update { value in
                value = 2
                throw Failure()
            }
        }
        #expect(current.value == 2)
        current.finish()
        #expect(await subscription.collect() == [1, 2])
    }

    /// Subscribing while another task sends gives no gap and no duplicate: the first value
    /// received is the value at registration, then every later one.
    @Test func subscribingDuringSendsHasNoGapOrDuplicate() async throws {
        let last = 20_000
        let current = CurrentValue(0)
        let producer = Task {
            for value in 1...last {
                current.send(value)
            }
        }
        await waitUntil("the producer started") { current.value > 0 }
        let subscription = current.subscribe(bufferSize: last + 1, overflow: .dropNewest)
        await producer.value
        current.finish()
        let received = await subscription.collect()
        let first = try #require(received.first)
        #expect(received == Array(first...last))
        #expect(subscription.droppedCount == 0)
    }

    /// After `finish`, the value still changes but nobody is notified, and later subscribers end
    /// at once.
    @Test func finishEndsSubscribersButKeepsTheValue() async {
        let current = CurrentValue(1)
        let subscription = current.subscribe()
        current.finish()
        current.send(2)
        current.update { $0 += 1 }
        #expect(current.value == 3)
        #expect(await subscription.collect() == [1])
        #expect(await current.subscribe().collect() == [])
    }

    /// `finish` wakes a subscriber waiting for the next value.
    @Test func finishWakesWaitingSubscriber() async {
        let current = CurrentValue(1)
        let consumer = Task {
            var received: [Int] = []
            for await value in current {
                received.append(value)
            }
            return received
        }
        await waitUntil("the subscriber waits") { current.storage.waitingConsumers == 1 }
        current.finish()
        #expect(await consumer.value == [1])
    }
}
