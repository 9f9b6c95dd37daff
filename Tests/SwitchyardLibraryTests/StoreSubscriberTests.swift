import Switchyard
import SwitchyardTestSupport
import Synchronization
import Testing

private enum Ping: Sendable, Equatable {
    case tick
    case echo
}

struct StoreSubscriberTests {
    /// A subscriber that dispatches in reaction to each action, with small buffers, while 4,000
    /// sends arrive: no deadlock, every action reduced, and `close()` then ends everything.
    @Test func subscriberThatDispatchesNeverDeadlocks() async {
        let store = Store(initialState: 0, reducer: { (count: inout Int, _: Ping) in count += 1 },
                          options: StoreOptions(inboxCapacity: 16))
        let actions = store.actions(bufferSize: 4)
        let reactor = Task {
            var seen = 0
            for await action in actions {
                seen += 1
                if action == .tick { await store.dispatch(.echo) }
                if seen == 8000 { break }
            }
            return seen
        }
        let sender = Task {
            for _ in 0..<4000 { while !store.send(.tick) { await Task.yield() } }
        }
        let seen = await withDeadline { await reactor.value }
        await sender.value
        #expect(seen == 8000)
        #expect(store.currentState == 8000)
        store.close()
        let ended = await withDeadline { () -> Bool in
            for await _ in store.states {}
            return true
        }
        #expect(ended != nil)
    }

    /// A forgotten, unread subscription holds the store up losslessly, is named in one log line
    /// and in statistics; cancelling it lets the store go on.
    @Test func forgottenSubscriberIsNamed() async {
        let logs = LogLines()
        let store = Store(initialState: 0, reducer: { (count: inout Int, _: Int) in count += 1 },
                          options: StoreOptions(inboxCapacity: 8, log: logs.sink))
        let forgotten = store.actions(name: "forgotten", bufferSize: 4)
        let sender = Task { for value in 0..<200 { await store.enqueue(value) } }
        await waitUntil("the store reports the stall") {
            store.statistics.subscribers.contains { $0.name == "forgotten" && $0.holdingStore }
        }
        #expect(store.currentState < 200)
        #expect(logs.all.count == 1)
        #expect(logs.all.first?.contains("'forgotten'") == true)
        #expect(forgotten.stallCount == 1)
        forgotten.cancel()
        await sender.value
        await waitUntil("everything reduced") { store.currentState == 200 }
    }

    /// Choosing `.dropOldest` is one parameter away: an unread subscriber then never holds the
    /// store up, and its drops are counted and logged once.
    @Test func droppingSubscriberNeverHoldsTheStore() async {
        let logs = LogLines()
        let store = Store(initialState: 0, reducer: { (count: inout Int, _: Int) in count += 1 },
                          options: StoreOptions(inboxCapacity: 8, log: logs.sink))
        let unread = store.actions(name: "unread", bufferSize: 4, overflow: .dropOldest)
        for value in 0..<200 { await store.dispatch(value) }
        #expect(store.currentState == 200)
        #expect(unread.droppedCount == 196)
        #expect(logs.all.count == 1)
    }

    /// `states(of:)` subscribes when iterated, and its result can be iterated twice, also at
    /// once, each iterator starting from the current value.
    @Test func selectedStatesIterateTwice() async {
        let store = Store(initialState: 0, reducer: { (count: inout Int, action: Int) in count += action })
        let doubled = store.states(of: { $0 * 2 })
        await store.dispatch(1)
        var first = doubled.makeAsyncIterator()
        #expect(await first.next() == 2)
        let concurrent = Task {
            var values: [Int] = []
            for await value in doubled {
                values.append(value)
                if value == 6 { break }
            }
            return values
        }
        var second = doubled.makeAsyncIterator()
        #expect(await second.next() == 2)
        await store.dispatch(2)
        #expect(await first.next() == 6)
        #expect(await second.next() == 6)
        let values = await withDeadline { await concurrent.value }
        #expect(values?.last == 6)
    }

    /// `actions` is registered when called (an action sent right after is seen), and two
    /// iterators alive at once each get a subscription of their own instead of a crash.
    @Test func actionsRegisterAtOnceAndIterateTwice() async {
        let store = Store(initialState: 0, reducer: { (count: inout Int, action: Int) in count += action })
        let actions = store.actions
        store.send(1)
        var first = actions.makeAsyncIterator()
        #expect(await first.next() == 1)
        var second = actions.makeAsyncIterator()
        store.send(2)
        #expect(await first.next() == 2)
        #expect(await second.next() == 2)
    }
}
