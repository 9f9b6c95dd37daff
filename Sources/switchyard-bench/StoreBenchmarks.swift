import SwitchyardBus
import SwitchyardStreams

/// The `store.dispatch` cases: a trivial reducer, actions sent as fast as the store takes
/// them, and N action subscribers that each must receive every action.
///
/// Baseline: the store a user would write by hand — an actor that reduces in a method the
/// producer awaits per action and yields each action to one AsyncStream per subscriber.
func storeBenchmarks() -> [BenchmarkCase] {
    let count = 1_000_000
    return [0, 1, 8].map { subscribers in
        BenchmarkCase(
            name: "store.dispatch",
            subscribers: subscribers,
            unit: "actions/s",
            target: subscribers == 8 ? 4_000_000 : nil,
            measure: { await measureStore(count: count, subscribers: subscribers) },
            baseline: { await measurePlainStore(count: count / 10, subscribers: subscribers) }
        )
    }
}

private func measureStore(count: Int, subscribers: Int) async -> Double {
    // The producer outruns the subscribers by design, so the store waits for one many times a
    // run; the two log lines of each wait (some 1,800 in a full bench run) would bury the table.
    let store = Store(initialState: 0, reducer: { (state: inout Int, action: Int) in state &+= action },
                      middleware: [], options: StoreOptions(inboxCapacity: 8192, log: { _ in }))
    let streams = (0..<subscribers).map { _ in store.actions(bufferSize: 8192, overflow: .suspendProducer) }
    return await throughput(count: count) {
        _ = await fanOut(to: streams, upTo: count) {
            for action in 0..<count where !store.send(action) {
                await store.enqueue(action)
            }
            if subscribers == 0 { await store.dispatch(0) }
        }
    }
}

/// The hand-written store of the baseline.
private actor PlainStore {
    private var state = 0
    private var continuations: [AsyncStream<Int>.Continuation] = []

    func subscribe() -> AsyncStream<Int> {
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        continuations.append(continuation)
        return stream
    }

    func dispatch(_ action: Int) {
        state &+= action
        for continuation in continuations { continuation.yield(action) }
    }
}

private func measurePlainStore(count: Int, subscribers: Int) async -> Double {
    let store = PlainStore()
    var streams: [AsyncStream<Int>] = []
    for _ in 0..<subscribers { streams.append(await store.subscribe()) }
    return await throughput(count: count) {
        _ = await fanOut(to: streams, upTo: count) {
            for action in 0..<count { await store.dispatch(action) }
        }
    }
}
