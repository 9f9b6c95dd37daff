import Glibc
import Synchronization

/// The CPU time this process spent per action in each run of a case, for its note: with the
/// machine shared, throughput swings with the neighbours' load, while the CPU both buses spend
/// on an action barely moves. Counts every thread of the bench process (both buses, their
/// event loop) and nothing of a child such as nats-server.
final class CPUPerAction: Sendable {
    private let perAction = Mutex<[Double]>([])

    /// Records one run: `seconds` of process CPU time for `actions` actions.
    func record(_ seconds: Double, actions: Int) {
        guard actions > 0 else { return }
        perAction.withLock { $0.append(seconds / Double(actions)) }
    }

    /// `cpu N µs/action`, the median of the runs recorded; empty before any.
    var note: String {
        let sorted = perAction.withLock { $0 }.sorted()
        guard !sorted.isEmpty else { return "" }
        let median = sorted[sorted.count / 2] * 1e6
        return "cpu \((median * 10).rounded() / 10) µs/action, median of \(sorted.count) runs"
    }

    /// User and system CPU time of every thread of this process so far, in seconds.
    static func processTime() -> Double {
        var usage = rusage()
        guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}
