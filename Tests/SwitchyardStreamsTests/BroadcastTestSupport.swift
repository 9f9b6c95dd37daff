@testable import SwitchyardStreams
import Testing

/// Yields until `condition` holds, recording an issue if it never does; lets a test wait for
/// another task to reach a suspension point without sleeping.
func waitUntil(
    _ description: String,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: () -> Bool
) async {
    for _ in 0..<200_000 {
        if condition() { return }
        await Task.yield()
    }
    Issue.record("timed out waiting until \(description)", sourceLocation: sourceLocation)
}

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
