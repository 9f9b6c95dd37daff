import Synchronization
import SwitchyardIO

/// The `thread.handoff` case: what one hand-over between threads costs a dispatch, the least a
/// bus pays that never lets the socket's thread wait for the disk (issue 35's latency targets).
///
/// Measured: the mean round trip of work handed from one bus worker thread to a second and
/// back (`WorkerThread.submit`, each thread parked on its eventfd in between), as a dispatch
/// goes from the event loop to the journal writer's thread and its answer back. Baseline: the
/// same round trip from a worker thread through a task on the Swift concurrency pool and back,
/// the hop the store's reducing task took before it ran on the writer's thread. Both in µs,
/// lower is better; one request in flight, as `bench-ingest`'s latency figure.
func handoffBenchmarks() -> [BenchmarkCase] {
    let rounds = 20_000
    return [
        BenchmarkCase(name: "thread.handoff", unit: "µs", higherIsBetter: false,
                      measure: { await workerRoundTrip(rounds: rounds) },
                      baseline: { await poolRoundTrip(rounds: rounds) }),
    ]
}

/// Mean µs of `rounds` round trips between two worker threads.
private func workerRoundTrip(rounds: Int) async -> Double {
    let second = WorkerThread(name: "bench-pong")
    return await meanRoundTrip(rounds: rounds) { work in second.submit(work) }
}

/// Mean µs of `rounds` round trips from a worker thread to a pool task and back.
private func poolRoundTrip(rounds: Int) async -> Double {
    await meanRoundTrip(rounds: rounds) { work in Task.detached { work() } }
}

/// Mean µs of `rounds` round trips from a worker thread through `away` (which runs the work
/// it is handed somewhere else) and back to the worker.
private func meanRoundTrip(rounds: Int, away: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void) async -> Double {
    let home = WorkerThread(name: "bench-ping")
    let clock = ContinuousClock()
    let elapsed = await clock.measure {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let left = RoundsLeft(rounds)
            @Sendable func ping() {
                away {
                    home.submit {
                        if left.countDown() { ping() } else { done.resume() }
                    }
                }
            }
            home.submit { ping() }
        }
    }
    return elapsed.secondsValue * 1e6 / Double(rounds)
}

/// The rounds a ping-pong has left, shared by the closures that hand it on.
private final class RoundsLeft: Sendable {
    private let left: Atomic<Int>

    init(_ rounds: Int) {
        left = Atomic(rounds)
    }

    /// Counts one round done; whether another is due.
    func countDown() -> Bool {
        left.subtract(1, ordering: .relaxed).newValue > 0
    }
}
