import Synchronization
import SwitchyardIO

/// A cumulative histogram of durations with fixed buckets, as Prometheus shows them: thread
/// safe, one lock per observation.
package final class LatencyHistogram: Sendable {
    /// Bucket upper bounds in seconds.
    package let bounds: [Double]

    package struct Counts: Sendable, Hashable {
        /// Observations at or below each bound (not cumulative; the exposition sums them).
        package var buckets: [UInt64]
        package var count: UInt64 = 0
        package var sum: Double = 0
    }

    private let counts: Mutex<Counts>

    init(bounds: [Double]) {
        self.bounds = bounds
        counts = Mutex(Counts(buckets: Array(repeating: 0, count: bounds.count)))
    }

    /// Records one duration.
    func observe(_ duration: Duration) {
        let seconds = duration.secondsValue
        let index = bounds.firstIndex { seconds <= $0 }
        counts.withLock { counts in
            if let index { counts.buckets[index] &+= 1 }
            counts.count &+= 1
            counts.sum += seconds
        }
    }

    /// The figures so far.
    package var snapshot: Counts { counts.withLock { $0 } }

    /// How long the journal's flushes to disk (`fdatasync`) take, over the whole process.
    package static let journalSync = LatencyHistogram(bounds: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5])
}
