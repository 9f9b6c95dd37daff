import Foundation
import Glibc
import Synchronization

/// The CPU time a process spent per action in each run of a case, for its note: with the
/// machine shared, throughput swings with the neighbours' load, while the CPU a bus spends on
/// an action barely moves. ``processTime()`` counts every thread of the bench process (the
/// in-process buses of `nats.*`, their event loop) and nothing of a child such as nats-server;
/// ``processTime(of:)`` counts a started `switchyard` process alone, not the bench's clients.
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

    /// User and system CPU time of every thread of process `pid` so far, in seconds (fields 14
    /// and 15 of `/proc/<pid>/stat`, in clock ticks); 0 when it cannot be read.
    static func processTime(of pid: Int32) -> Double {
        cpuTime(statPath: "/proc/\(pid)/stat")
    }

    /// CPU time so far of every thread of process `pid`, summed by thread name, in seconds: the
    /// nanoseconds each ran (`/proc/<pid>/task/<tid>/schedstat`'s first field), finer than the
    /// clock ticks of `stat`, for telling which thread a case's cost lands on. Threads that
    /// ended are not counted.
    static func threadTimes(of pid: Int32) -> [String: Double] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        var times: [String: Double] = [:]
        for task in tasks {
            guard let comm = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/comm", encoding: .utf8),
                  let stat = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/schedstat", encoding: .utf8),
                  let ran = stat.split(separator: " ").first.flatMap({ Double($0) })
            else { continue }
            times[comm.trimmingCharacters(in: .newlines), default: 0] += ran / 1e9
        }
        return times
    }

    private static func cpuTime(statPath: String) -> Double {
        guard let stat = try? String(contentsOfFile: statPath, encoding: .utf8),
              let nameEnd = stat.lastIndex(of: ")")
        else { return 0 }
        // After the name (which may hold spaces) come the fields from the third on: the state,
        // then utime and stime at 11 and 12 counted from it.
        let fields = stat[stat.index(after: nameEnd)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
