import Synchronization

/// Request ids, increasing for the life of the plugin (across restarts of its `run`), so a
/// result from before a restart can never match a newer request.
final class RequestIDs: Sendable {
    private let last = Atomic<Int64>(0)

    /// The next id, starting at 1.
    func next() -> Int64 {
        last.add(1, ordering: .relaxed).newValue
    }
}
