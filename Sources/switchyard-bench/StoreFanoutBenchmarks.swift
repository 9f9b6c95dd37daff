import Switchyard
import SwitchyardStreams

/// The `store.fanout` cases: the store's two possible fan-outs for its `actions` subscribers,
/// measured under the same store in the same run (issue 35 asked to keep the faster).
///
/// Measured: N `store.actions` subscriptions (the store's own fan-out, which hands every
/// subscriber a slice of the reduced batch). Baseline: the same store handing each reduced
/// batch to a `Broadcast` (`deliver(contentsOf:)`, lossless) that N subscriptions read — what
/// the store's subscriptions would be if built on `Broadcast`. Actions are strings of 24 bytes
/// (a heap object, as a real action's type and payload are), so copying one per subscriber
/// costs what it costs a real action.
func storeFanoutBenchmarks() -> [BenchmarkCase] {
    let count = 1_000_000
    return [1, 8].map { subscribers in
        BenchmarkCase(
            name: "store.fanout",
            subscribers: subscribers,
            unit: "actions/s",
            measure: { await measureStoreActions(count: count, subscribers: subscribers) },
            baseline: { await measureStoreBroadcast(count: count, subscribers: subscribers) }
        )
    }
}

/// The actions sent: a few distinct heap strings, reused.
private let fanoutActions = (0..<16).map { "store-fanout/action-\($0 + 1000)" }

private func storeOptions() -> StoreOptions {
    StoreOptions(inboxCapacity: 8192, log: { _ in })
}

private func send(_ count: Int, to store: Store<Int, String>) async {
    for index in 0..<count where !store.send(fanoutActions[index & 15]) {
        await store.enqueue(fanoutActions[index & 15])
    }
}

private func measureStoreActions(count: Int, subscribers: Int) async -> Double {
    let store = Store(initialState: 0, reducer: { (state: inout Int, action: String) in state &+= action.utf8.count },
                      middleware: [], options: storeOptions())
    let streams = (0..<subscribers).map { _ in store.actions(bufferSize: 8192, overflow: .suspendProducer) }
    return await throughput(count: count) {
        _ = await fanOut(to: streams, upTo: count) { await send(count, to: store) }
    }
}

/// Hands each reduced batch to a broadcast, as the store's own fan-out would if it were one.
private struct BroadcastSink: BatchSink {
    let broadcast: Broadcast<String>

    func commit(_ batch: ReducedBatch<Int, String, Never>) -> BatchCommit<Never>? { nil }

    func deliver(_ batch: ReducedBatch<Int, String, Never>) async {
        await broadcast.deliver(contentsOf: batch.actions)
    }
}

private func measureStoreBroadcast(count: Int, subscribers: Int) async -> Double {
    let broadcast = Broadcast<String>()
    let streams = (0..<subscribers).map { _ in broadcast.subscribe(bufferSize: 8192, overflow: .suspendProducer) }
    let store = Store<Int, String>(initialState: 0, reducer: { state, action in state &+= action.utf8.count },
                                   middleware: [], options: storeOptions(), firstSequence: 1)
    store.startDrainer(into: BroadcastSink(broadcast: broadcast))
    return await throughput(count: count) {
        _ = await fanOut(to: streams, upTo: count) { await send(count, to: store) }
    }
}
