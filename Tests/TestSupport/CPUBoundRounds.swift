import Dispatch
import Foundation
import Testing

/// Runs `count` rounds of CPU-bound test work (a seeded fuzz loop) on a thread of its own,
/// with a hang guard measured in that thread's CPU time, not in real time.
///
/// Why: a synchronous loop of tens of seconds run on the cooperative pool (two threads on a
/// 2-core machine) starves every async test of the same process, and on a loaded machine
/// its real time grows with the load while the work does not. Off the pool, the other tests
/// keep their threads; counted in CPU time, the guard (`cpuBudget`, default 60 s, scaled by
/// `SWITCHYARD_TEST_TIMEOUT_SCALE`) means the same on an idle and on a busy machine. The
/// rounds are always the same (`count`, fixed); an exhausted budget records an issue and
/// ends the loop. The task and its task-locals stay the same, so `#expect` reports as usual.
public func cpuBoundRounds(
    _ count: Int,
    cpuBudget: Duration = .seconds(60),
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: (_ round: Int) throws -> Void
) async rethrows {
    let budget = TestTimeouts.scaled(cpuBudget)
    try await withTaskExecutorPreference(OwnThreadExecutor()) {
        let start = threadCPUTime()
        for round in 0..<count {
            if round % 64 == 0, threadCPUTime() - start > budget {
                Issue.record("used over \(budget) of CPU time after \(round) of \(count) rounds (a hang?)", sourceLocation: sourceLocation)
                return
            }
            try body(round)
        }
    }
}

/// The calling thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`).
private func threadCPUTime() -> Duration {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
}

/// Runs jobs on a serial dispatch queue of its own, whose thread is not one of the
/// cooperative pool's.
private final class OwnThreadExecutor: TaskExecutor {
    private let queue = DispatchQueue(label: "switchyard.tests.cpu-bound")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
