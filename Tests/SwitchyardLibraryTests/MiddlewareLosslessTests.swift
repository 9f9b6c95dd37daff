import Switchyard
import SwitchyardTestSupport
import Synchronization
import Testing

private enum Fetch: Sendable, Equatable {
    case fetch(Int)
    case loaded(Int)
    case other(Int)
}

struct MiddlewareLosslessTests {
    /// A middleware awaiting a slow request sees a second fetch behind 2,000 other actions: the
    /// store applies backpressure (send refused) instead of dropping, and nothing is lost.
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
        await store.dispatch(.fetch(1))
        await store.dispatch(.fetch(2))
        let flood = Task { for index in 0..<2000 { await store.enqueue(.other(index)) } }
        await waitUntil("the inbox refuses a send") { !store.send(.other(-1)) }
        gate.open()
        await flood.value
        let others = { store.currentState.filter { if case .other(let index) = $0 { index >= 0 } else { false } } }
        await waitUntil("both fetches loaded and every other action reduced") {
            store.currentState.contains(.loaded(2)) && others().count == 2000
        }
        #expect(store.currentState.contains(.loaded(1)))
        #expect(others() == (0..<2000).map { .other($0) })
        #expect(store.statistics.middlewareDrops == 0)
        #expect(store.statistics.rejected >= 1)
    }

    /// Dropping is a named choice: `.dropOldest` discards waiting effects, counts them and logs
    /// one line for the episode.
    @Test func droppingIsExplicitCountedAndLoggedOnce() async {
        let gate = Gate()
        let seen = Mutex<[Int]>([])
        let lossy = Middleware<Int, Int>(name: "lossy", bufferSize: 2, overflow: .dropOldest, effect: { _, action, _ in
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
