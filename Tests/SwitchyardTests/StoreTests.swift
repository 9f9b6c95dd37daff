import SwitchyardBus
import SwitchyardTestSupport
import Synchronization
import Testing

/// A counter store with a log of every action it reduced, for checking order.
private struct Tally: Sendable, Equatable {
    var total = 0
    var log: [Int] = []
    var label = "idle"
}

private func makeTallyStore(
    middleware: [Middleware<Tally, Int>] = [],
    options: StoreOptions = StoreOptions()
) -> Store<Tally, Int> {
    Store(initialState: Tally(), reducer: { (state: inout Tally, action: Int) in
        state.total += action
        state.log.append(action)
    }, middleware: middleware, options: options)
}

/// Reads the first `count` actions of `actions` in a task of its own, handing each to
/// `onEach` as it comes (before the next is read).
private func reading(
    _ count: Int, of actions: StoreActions<Int>, onEach: @escaping @Sendable (Int) -> Void = { _ in }
) -> Task<[Int], Never> {
    Task {
        var seen: [Int] = []
        for await action in actions {
            seen.append(action)
            onEach(action)
            if seen.count == count { break }
        }
        return seen
    }
}

struct StoreTests {
    /// Actions sent one after another are reduced in exactly that order.
    @Test func reducesInArrivalOrder() async {
        let store = makeTallyStore()
        for value in 1...500 { #expect(store.send(value)) }
        await store.dispatch(501)
        #expect(store.currentState.log == Array(1...501))
        #expect(store.statistics.reduced == 501)
    }

    /// The pure `(State, Action) -> State` reducer form works like the in-place form.
    @Test func pureReducerForm() async {
        let store = Store(initialState: 10, reducer: { (state: Int, action: Int) -> Int in state * action })
        await store.dispatch(3)
        await store.dispatch(2)
        #expect(store.currentState == 60)
    }

    /// Concurrent senders keep their own order (FIFO per sender), and nothing is lost.
    @Test func fifoPerSenderUnderConcurrency() async {
        let store = makeTallyStore()
        await withTaskGroup(of: Void.self) { group in
            for sender in 0..<8 {
                group.addTask {
                    for index in 0..<250 { await store.dispatch(sender * 1000 + index) }
                }
            }
        }
        let log = store.currentState.log
        #expect(log.count == 2000)
        for sender in 0..<8 {
            let own = log.filter { $0 / 1000 == sender }
            #expect(own == (0..<250).map { sender * 1000 + $0 })
        }
    }

    /// `send` refuses an action when the bounded inbox is full instead of growing it.
    @Test func sendRefusesWhenInboxIsFull() async {
        let store = Store(initialState: 0, reducer: { (state: inout Int, action: Int) in state += action },
                          middleware: [], options: StoreOptions(inboxCapacity: 4))
        // A subscriber that does not read and asked to hold up the producer stalls the
        // drainer after its first batch, so the inbox fills up.
        let stalled = store.actions(bufferSize: 1, overflow: .suspendProducer)
        var accepted = 0
        for value in 0..<100 where store.send(value) { accepted += 1 }
        #expect(accepted < 100)
        #expect(store.statistics.rejected > 0)
        stalled.cancel()
    }

    /// An action sent by a subscriber while it handles an action is queued behind it, never
    /// reduced inside it.
    @Test func reentrantSendIsQueuedNotNested() async {
        let store = makeTallyStore()
        let reader = reading(3, of: store.actions) { action in
            // Sent while action 1 is being delivered: lands after 2, which was queued first.
            if action == 1 { store.send(100) }
        }
        store.send(1)
        store.send(2)
        let seen = await reader.value
        #expect(seen == [1, 2, 100])
        #expect(store.currentState.log == [1, 2, 100])
    }

    /// `states` yields the current state first, then later ones, with no gap and no duplicate.
    @Test func statesStartWithCurrentValue() async {
        let store = makeTallyStore()
        await store.dispatch(5)
        var iterator = store.states.makeAsyncIterator()
        let first = await iterator.next()
        #expect(first?.total == 5)
        await store.dispatch(1)
        let second = await iterator.next()
        #expect(second?.total == 6)
    }

    /// A slow state consumer sees the latest state, not a backlog of every intermediate one.
    @Test func slowStateConsumerCoalesces() async {
        let store = makeTallyStore()
        var iterator = store.states.makeAsyncIterator()
        _ = await iterator.next()
        for value in 1...1000 { await store.dispatch(value) }
        let next = await iterator.next()
        #expect(next?.total == (1...1000).reduce(0, +))
    }

    /// `states(of:)` drops repeats of the selected value.
    @Test func selectedStatesDropRepeats() async {
        let store = Store(initialState: Tally(), reducer: { (state: inout Tally, action: Int) in
            state.total += action
            state.label = state.total >= 10 ? "big" : "small"
        })
        let labels = Task {
            var seen: [String] = []
            for await label in store.states(of: \.label) {
                seen.append(label)
                if label == "big" { break }
            }
            return seen
        }
        // Wait until the selection has delivered its first value so every change is observed.
        while store.statistics.reduced == 0 {
            await store.dispatch(1)
        }
        for _ in 0..<20 { await store.dispatch(1) }
        let seen = await labels.value
        #expect(seen.first == "idle" || seen.first == "small")
        #expect(seen.last == "big")
        #expect(Set(seen).count == seen.count)
    }

    /// `actions` yields every reduced action in order.
    @Test func actionsYieldEveryActionInOrder() async {
        let store = makeTallyStore()
        let reader = reading(2000, of: store.actions)
        for value in 0..<2000 { await store.enqueue(value) }
        #expect(await reader.value == Array(0..<2000))
    }

    /// Cancelling the consuming task ends its subscription.
    @Test func cancellingConsumerEndsSubscription() async {
        let store = makeTallyStore()
        let actions = store.actions
        let reader = Task {
            var count = 0
            for await _ in actions { count += 1 }
            return count
        }
        await store.dispatch(1)
        reader.cancel()
        _ = await reader.value
        // The cancelled subscriber no longer holds the store up.
        for value in 0..<5000 { await store.enqueue(value) }
        await store.dispatch(0)
        #expect(store.currentState.log.count == 5002)
    }

    /// Middleware sees the state after reducing and its actions are dispatched in turn.
    @Test func middlewareEmitsActions() async {
        let doubling = Middleware<Tally, Int> { state, action in
            AsyncStream { continuation in
                if action > 0, action < 100 { continuation.yield(action * 100) }
                continuation.finish()
            }
        }
        let store = makeTallyStore(middleware: [doubling])
        let reader = reading(4, of: store.actions)
        store.send(1)
        store.send(2)
        let seen = await reader.value
        #expect(seen.prefix(2) == [1, 2])
        #expect(Set(seen.suffix(2)) == [100, 200])
    }

    /// A failing middleware is reported and carries on; a slow one holds up neither the reducer
    /// nor the other middleware.
    @Test func middlewareFailureAndSlownessAreIsolated() async {
        struct Boom: Error {}
        let errors = Mutex(0)
        let gate = Gate()
        let failing = Middleware<Tally, Int>(effect: { _, action, _ in
            if action == 1 { throw Boom() }
        })
        let slow = Middleware<Tally, Int>(effect: { _, _, _ in await gate.wait() })
        let echo = Middleware<Tally, Int>(effect: { _, action, emit in
            if action < 10 { await emit(action + 10) }
        })
        let store = makeTallyStore(middleware: [failing, slow, echo],
                                   options: StoreOptions(onMiddlewareError: { _ in errors.withLock { $0 += 1 } }))
        let actions = store.actions
        let reader = Task {
            var seen: Set<Int> = []
            for await action in actions {
                seen.insert(action)
                if seen.isSuperset(of: [11, 12]) { break }
            }
            return seen
        }
        store.send(1)
        store.send(2)
        let seen = await reader.value
        #expect(seen.isSuperset(of: [1, 2, 11, 12]))
        await waitUntil("the middleware failure is counted") { store.statistics.middlewareFailures > 0 }
        #expect(errors.withLock { $0 } == 1)
        gate.open()
    }

    /// `dispatch` waits for room when the inbox is full and then gets its action reduced.
    @Test func dispatchWaitsForRoom() async {
        let store = Store(initialState: [Int](), reducer: { (state: inout [Int], action: Int) in state.append(action) },
                          middleware: [], options: StoreOptions(inboxCapacity: 2))
        await withTaskGroup(of: Void.self) { group in
            for value in 0..<50 { group.addTask { await store.dispatch(value) } }
        }
        #expect(store.currentState.sorted() == Array(0..<50))
    }

    /// A closed store refuses new actions and ends its streams after draining.
    @Test func closeEndsStreams() async {
        let store = makeTallyStore()
        let actions = store.actions
        store.send(1)
        store.close()
        #expect(!store.send(2))
        var seen: [Int] = []
        for await action in actions { seen.append(action) }
        #expect(seen == [1])
    }
}

/// A one-shot gate for holding a task until a test releases it.
final class Gate: Sendable {
    private let opened = CurrentValue(false)

    func open() { opened.send(true) }

    func wait() async {
        for await isOpen in opened.subscribe() where isOpen { return }
    }
}
