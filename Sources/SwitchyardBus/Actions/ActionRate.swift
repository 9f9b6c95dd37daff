import Synchronization

/// Actions per second over a sliding window of samples of the reduced-action counter.
///
/// Pure: the caller samples on its clock and passes the times, so tests need no clock.
struct ActionRate: Sendable {
    private var samples: [(time: Duration, count: UInt64)] = []
    /// How many samples are kept; with one a second, the rate covers the last five seconds.
    let capacity: Int

    init(capacity: Int = 6) {
        self.capacity = capacity
    }

    mutating func record(_ count: UInt64, at time: Duration) {
        samples.append((time, count))
        if samples.count > capacity { samples.removeFirst(samples.count - capacity) }
    }

    /// The rate between the oldest and newest sample; 0 with fewer than two.
    var perSecond: Double {
        guard let first = samples.first, let last = samples.last, last.time > first.time else { return 0 }
        return Double(last.count &- first.count) / (last.time - first.time).seconds
    }
}

/// An ``ActionRate`` shared between the sampling task and readers of the statistics.
final class ActionRateMeter: Sendable {
    private let rate = Mutex(ActionRate())

    func record(_ count: UInt64, at time: Duration) {
        rate.withLock { $0.record(count, at: time) }
    }

    var perSecond: Double { rate.withLock { $0.perSecond } }
}
