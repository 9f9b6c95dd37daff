import Switchyard
import SwitchyardTestSupport
import Synchronization
import Testing

private enum Search: Sendable, Equatable {
    case query(String)
    case loaded([String])
    case clear
}

private struct SearchState: Sendable, Equatable {
    var query = ""
    var results: [String] = []
    var history: [Search] = []
}

private func searchStore(_ middleware: Middleware<SearchState, Search>) -> Store<SearchState, Search> {
    Store(initialState: SearchState(), reducer: { (state: inout SearchState, action: Search) in
        state.history.append(action)
        switch action {
        case .query(let text): state.query = text
        case .loaded(let results): state.results = results
        case .clear: state.query = ""
        }
    }, middleware: [middleware])
}

struct EffectPolicyTests {
    /// `.latest` cancels the search in flight: its stale result never lands after the newer
    /// query, even when the cancelled work ignores cancellation and emits anyway.
    @Test func latestDiscardsStaleResults() async {
        let gates = ["a": Gate(), "ab": Gate()]
        let search = Middleware<SearchState, Search>(effects: { _, action in
            guard case .query(let text) = action else { return .none }
            return .run(id: "search", policy: .latest) { emit in
                await gates[text]?.wait()
                await emit(.loaded([text]))
            }
        })
        let store = searchStore(search)
        await store.dispatch(.query("a"))
        await store.dispatch(.query("ab"))
        gates["a"]?.open()
        gates["ab"]?.open()
        await waitUntil("the newer results land") { store.currentState.results == ["ab"] }
        await waitUntil("the stale result was discarded") { store.statistics.effectOutputsDiscarded == 1 }
        #expect(!store.currentState.history.contains(.loaded(["a"])))
        #expect(store.statistics.effectsCancelled == 1)
    }

    /// `cancel(id:)` from a later action stops the effect and discards what it emits later.
    @Test func cancelByIDFromALaterAction() async {
        let gate = Gate()
        let search = Middleware<SearchState, Search>(effects: { _, action in
            switch action {
            case .query(let text):
                return .run(id: "search") { emit in
                    await gate.wait()
                    await emit(.loaded([text]))
                }
            case .clear:
                return .cancel(id: "search")
            case .loaded:
                return .none
            }
        })
        let store = searchStore(search)
        await store.dispatch(.query("x"))
        await store.dispatch(.clear)
        gate.open()
        await waitUntil("the late result was discarded") { store.statistics.effectOutputsDiscarded == 1 }
        #expect(store.currentState.results.isEmpty)
    }

    /// `.leading` ignores a query that arrives while one is in flight.
    @Test func leadingIgnoresWhileBusy() async {
        let gate = Gate()
        let search = Middleware<SearchState, Search>(effects: { _, action in
            guard case .query(let text) = action else { return .none }
            return .run(id: "search", policy: .leading) { emit in
                await gate.wait()
                await emit(.loaded([text]))
            }
        })
        let store = searchStore(search)
        await store.dispatch(.query("first"))
        await store.dispatch(.query("second"))
        #expect(store.statistics.effectsIgnored == 1)
        gate.open()
        await waitUntil("the first result lands") { store.currentState.results == ["first"] }
        #expect(store.currentState.history.filter { if case .loaded = $0 { true } else { false } }.count == 1)
    }

    /// `.every(maxConcurrent: 2)` overlaps effects but never runs more than two at once, and
    /// `.queue` runs them one after another in order.
    @Test(arguments: [(WorkPolicy.every(maxConcurrent: 2), 2), (WorkPolicy.queue, 1)])
    func concurrencyLimit(policy: WorkPolicy, limit: Int) async {
        let running = Mutex((now: 0, peak: 0, order: [String]()))
        let search = Middleware<SearchState, Search>(effects: { _, action in
            guard case .query(let text) = action else { return .none }
            return .run(id: "search", policy: policy) { emit in
                running.withLock { $0.now += 1; $0.peak = max($0.peak, $0.now); $0.order.append(text) }
                for _ in 0..<20 { await Task.yield() }
                running.withLock { $0.now -= 1 }
                await emit(.loaded([text]))
            }
        })
        let store = searchStore(search)
        let queries = (0..<8).map { "q\($0)" }
        for query in queries { await store.dispatch(.query(query)) }
        await waitUntil("every query loaded") {
            store.currentState.history.filter { if case .loaded = $0 { true } else { false } }.count == 8
        }
        let figures = running.withLock { $0 }
        #expect(figures.peak <= limit)
        if limit == 1 { #expect(figures.order == queries) }
    }
}
