@testable import SwitchyardStreams
import Testing

extension _BroadcastStorage {
    /// How many consumers are suspended waiting for elements.
    var waitingConsumers: Int {
        state.withLock { state in state.subscribers.count { $0.consumer != nil } }
    }

    /// How many producers are suspended waiting for room.
    var waitingProducers: Int {
        state.withLock { state in state.waits.values.count { $0.continuation != nil } }
    }
}

extension Broadcast.Subscription {
    /// Collects elements until the subscription ends.
    func collect() async -> [Element] {
        var elements: [Element] = []
        for await element in self {
            elements.append(element)
        }
        return elements
    }
}

/// Detects whether a job enqueued on this actor ran while the actor awaited something.
actor SuspensionProbe {
    private var interleaved = false

    private func mark() {
        interleaved = true
    }

    func deliversAndIteratesWithoutInterleaving() async -> Bool {
        let broadcast = Broadcast<Int>()
        let subscription = broadcast.subscribe(bufferSize: 200)
        interleaved = false
        let marker = Task { mark() }
        for element in 0..<100 {
            await broadcast.deliver(element)
        }
        await broadcast.deliver(contentsOf: Array(100..<200))
        var iterator = subscription.makeAsyncIterator()
        for _ in 0..<200 {
            _ = await iterator.next(isolation: self)
        }
        let result = interleaved
        await marker.value
        return result
    }

    /// The control: a real suspension lets the marker run.
    func yieldInterleaves() async -> Bool {
        interleaved = false
        let marker = Task { mark() }
        await marker.value
        return interleaved
    }
}
