/// What happens when a trigger arrives while requests are in flight.
enum TriggerPolicy: Sendable, Hashable, CustomStringConvertible {
    /// The in-flight request is cancelled and the new one starts; its late result is dropped.
    case latest
    /// Every trigger gets a request; at most `maxConcurrent` run at once, later ones wait.
    case every(maxConcurrent: Int)
    /// A trigger that arrives while a request is in flight is ignored.
    case leading
    /// Every trigger gets a request, one at a time, in arrival order.
    case queue

    /// The most requests this policy runs at once.
    var concurrency: Int {
        switch self {
        case .latest, .leading, .queue: return 1
        case .every(let maxConcurrent): return maxConcurrent
        }
    }

    /// The name a config file uses: `latest`, `every`, `leading`, `queue`.
    var description: String {
        switch self {
        case .latest: return "latest"
        case .every: return "every"
        case .leading: return "leading"
        case .queue: return "queue"
        }
    }
}
