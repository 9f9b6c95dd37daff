import Synchronization

/// States a ``StateHistory`` met on its way through the journal, kept so that the next question
/// about a nearby moment starts close to it instead of at a snapshot far behind (a journal keeps
/// only its two newest snapshots): one every ``interval`` actions, at most ``capacity`` of them.
///
/// Shared by the copies of one history (the HTTP door asks it every question), so a dashboard
/// scrubbing through a long journal pays for the walk from the start once. The past does not
/// change, so a kept state stays right: a compaction may remove the actions after it, which the
/// reduction then reports, as it does for a snapshot.
final class HistoryCheckpoints: Sendable {
    /// Actions between two kept states.
    let interval: UInt64
    /// The most states kept; when full, the one nearest another is dropped first, so the kept
    /// ones stay spread over the journal.
    let capacity: Int
    private let states = Mutex<[UInt64: StateHistory.Reduction]>([:])

    init(interval: UInt64 = 10_000, capacity: Int = 128) {
        self.interval = max(1, interval)
        self.capacity = max(1, capacity)
    }

    /// Keeps `reduction`, the state (and plugins' activity) right after action `sequence`, when
    /// it falls on the interval.
    func offer(_ sequence: UInt64, _ reduction: StateHistory.Reduction) {
        guard sequence % interval == 0 else { return }
        states.withLock { states in
            guard states[sequence] == nil else { return }
            states[sequence] = reduction
            guard states.count > capacity else { return }
            let sorted = states.keys.sorted()
            // Drops the second of the closest pair: the spread stays even as the journal grows.
            let gaps = zip(sorted, sorted.dropFirst()).map { ($1 - $0, $1) }
            if let closest = gaps.min(by: { $0.0 < $1.0 }) { states[closest.1] = nil }
        }
    }

    /// The kept states before `target`, newest first.
    func before(_ target: UInt64) -> [(sequence: UInt64, reduction: StateHistory.Reduction)] {
        states.withLock { states in
            states.filter { $0.key < target }.sorted { $0.key > $1.key }.map { ($0.key, $0.value) }
        }
    }

    /// The newest kept state before `target`, if any: what a question near the last one needs,
    /// without sorting and copying every kept state as ``before(_:)`` does.
    func newest(before target: UInt64) -> (sequence: UInt64, reduction: StateHistory.Reduction)? {
        states.withLock { states in
            var newest: UInt64?
            for sequence in states.keys where sequence < target && sequence > (newest ?? 0) { newest = sequence }
            return newest.flatMap { sequence in states[sequence].map { (sequence, $0) } }
        }
    }

    /// How many states are kept.
    var count: Int { states.withLock { $0.count } }
}
