import Switchyard

extension WorkPolicy {
    /// The most pieces of work this policy runs at once.
    var concurrency: Int {
        switch self {
        case .latest, .leading, .queue: return 1
        case .every(let maxConcurrent): return max(maxConcurrent, 1)
        }
    }
}
