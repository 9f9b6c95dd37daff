import Switchyard
import SwitchyardTestSupport
import Synchronization
import Testing

private enum Fetch: Sendable, Hashable {
    case fetch(Int)
    case loaded(Int)
    case other(Int)
}

struct MiddlewareLosslessTests {
    /// A middleware whose work falls behind (every action starts a fetch, and the service
    /// holds them all) applies backpressure once its bound is reached: 64 fetches in flight
    /// under the default policy and 8 waiting; the store then refuses sends instead of
    /// dropping, and once the service answers nothing is lost.
    @Test func slowMiddlewareAppliesBackpressure() async {
        let gate = Gate()
        let fetcher = Middleware<[Fetch], Fetch>(bufferSize: 8, effect: { _, action, emit in
            guard case .fetch(let id) = action else { return }
            await gate.wait()
            await emit(.loaded(id))
        })
        let logs = LogLines()
        let store = Store(initialState: [Fetch](), reducer: { (state: inout [Fetch], action: Fetch) in state.append(action) },
                          middleware: [fetcher], options: StoreOptions(inboxCapacity: 64, log: logs.sink))
        let flood = Task { for id in 0..<2000 { await store.enqueue(.fetch(id)) } }
        await waitUntil("64 fetches in flight and the inbox refusing sends") {
            store.statistics.effectsInFlight == 64 && !store.send(.other(-1))
        }
        gate.open()
        await flood.value
        let loaded = { store.currentState.filter { if case .loaded = $0 { true } else { false } } }
        await waitUntil("every fetch loaded") { loaded().count == 2000 }
        #expect(Set(loaded()) == Set((0..<2000).map { .loaded($0) }))
        #expect(store.statistics.middlewareDrops == 0)
        #expect(store.statistics.rejected >= 1)
    }

    /// Dropping is a named choice: `.dropOldest` discards waiting effects, counts them and logs
    /// one line for the episode (`.queue`: one runs, the others wait).
    @Test func droppingIsExplicitCountedAndLoggedOnce() async {
        let gate = Gate()
        let seen = Mutex<[Int]>([])
        let lossy = Middleware<Int, Int>(name: "lossy", bufferSize: 2, overflow: .dropOldest, policy: .queue, effect: { _, action, _ in
            seen.withLock { $0.append(action) }
            await gate.wait()
        })
        let logs = LogLines()
        let store = Store(initialState: 0, reducer: { (state: inout Int, action: Int) in state = action },
                          middleware: [lossy], options: StoreOptions(log: logs.sink))
        for value in 1...10 { await store.dispatch(value) }
        #expect(store.statistics.middlewareDrops == 7)
        gate.open()
        await waitUntil("the kept effects ran") { seen.withLock { $0.count } == 3 }
        #expect(seen.withLock { $0 } == [1, 9, 10])
        #expect(logs.all.count == 1)
        #expect(logs.all.first?.contains("'lossy'") == true)
    }
}
