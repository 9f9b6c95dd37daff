import Foundation
import SwitchyardIO
import Synchronization

/// `http.scrubbing`: what a dashboard scrubbing its timeline costs a bus that carries a steady
/// 50,000 actions/s (``BenchBus/pacedDispatch(rate:seconds:)``, 4 s a run): the bus process's
/// CPU time per action while a client asks `GET /api/state?at=` every 50 ms, moving a few
/// hundred actions at a time back and forth over the journal's first 50,000 like a drag.
/// Baseline: the same load with no one scrubbing. The ratio is the cost (0.9: 10 % more CPU
/// per action). The note gives the dispatch latency p50/p99 of both (the median of the runs'),
/// the CPU the bus's history reader thread spent per past state and its share of the bus's
/// CPU while scrubbing, the time the past states took to answer, and the bus's memory before
/// and after.
func scrubbingBenchmark() -> BenchmarkCase {
    let session = ScrubbingSession()
    return BenchmarkCase(name: "http.scrubbing", unit: "µs cpu/action", higherIsBetter: false, ratioTarget: 0.9,
                         measure: { await session.run(scrubbing: true) }, baseline: { await session.run(scrubbing: false) },
                         note: { session.note() })
}

private final class ScrubbingSession: Sendable {
    static let rate = 50_000
    static let seconds = 4.0
    /// The journal's first actions, written before the first run, among which the drag moves.
    static let history = 50_000

    private let started = Mutex<(bus: BenchBus, port: Int)?>(nil)
    private let latencies = Mutex<(scrubbed: [Percentiles], quiet: [Percentiles])>(([], []))
    private let answers = Mutex<[Double]>([])
    private let failures = Mutex(0)
    /// CPU seconds the bus's history reader thread spent in the scrubbed runs, and the bus's.
    private let readerShare = Mutex((reader: 0.0, bus: 0.0))
    /// The bus's resident memory before any scrubbing (its journal written) and after the last
    /// scrubbed run.
    private let resident = Mutex<(quiet: Double?, scrubbed: Double?)>((nil, nil))
    /// CPU seconds per action of each of the bus's threads (by name), summed over the runs
    /// with and without scrubbing, and the runs counted: where the cost lands.
    private let threads = Mutex((scrubbed: [String: Double](), quiet: [String: Double](), scrubbedRuns: 0, quietRuns: 0))

    private func bus() async -> (bus: BenchBus, port: Int) {
        if let started = started.withLock({ $0 }) { return started }
        guard let port = RawNATS.freePort() else {
            print("switchyard-bench: no free loopback port")
            exit(1)
        }
        let configuration = #"{"bus": {"name": "bench", "http": {"listen": "127.0.0.1:\#(port)"}}, "plugins": []}"#
        let bus = BenchBus.start(configuration: Data(configuration.utf8))
        // The moments the drag asks about must be in the journal before the first run.
        _ = await onThread { bus.measureThroughput(actions: Self.history, clients: 4) }
        let megabytes = bus.residentMB
        resident.withLock { $0.quiet = megabytes }
        started.withLock { $0 = (bus, port) }
        return (bus, port)
    }

    /// One run of the paced load, with or without a client scrubbing; the bus's CPU
    /// microseconds per action.
    func run(scrubbing: Bool) async -> Double {
        let (bus, port) = await bus()
        return await onThread {
            let done = Atomic<Bool>(false)
            let finished = DispatchSemaphore(value: 0)
            if scrubbing {
                Thread {
                    defer { finished.signal() }
                    self.drag(port: port, until: done)
                }.start()
            }
            let threadsBefore = CPUPerAction.threadTimes(of: bus.processID)
            let run = bus.pacedDispatch(rate: Self.rate, seconds: Self.seconds)
            let threadsAfter = CPUPerAction.threadTimes(of: bus.processID)
            let reader = (threadsAfter["http-history"] ?? 0) - (threadsBefore["http-history"] ?? 0)
            done.store(true, ordering: .relaxed)
            if scrubbing { finished.wait() }
            guard let run else {
                self.failures.withLock { $0 += 1 }
                return .infinity
            }
            if scrubbing { self.readerShare.withLock { $0 = ($0.reader + reader, $0.bus + run.cpuSeconds) } }
            self.threads.withLock { threads in
                for (name, after) in threadsAfter {
                    let perAction = (after - (threadsBefore[name] ?? 0)) / Double(run.actions)
                    if scrubbing { threads.scrubbed[name, default: 0] += perAction } else { threads.quiet[name, default: 0] += perAction }
                }
                if scrubbing { threads.scrubbedRuns += 1 } else { threads.quietRuns += 1 }
            }
            let figures = Percentiles(run.latencies)
            self.latencies.withLock { scrubbing ? $0.scrubbed.append(figures) : $0.quiet.append(figures) }
            if scrubbing {
                let megabytes = bus.residentMB
                self.resident.withLock { $0.scrubbed = megabytes }
            }
            return run.cpuPerAction * 1e6
        }
    }

    /// Asks for a past state every 50 ms (or as soon as the last answer came, when it took
    /// longer), 300 actions on from the last, turning at the ends and every 20 steps.
    private func drag(port: Int, until done: borrowing Atomic<Bool>) {
        guard let client = HTTPBenchClient(port: port) else { return }
        let clock = ContinuousClock()
        var point = Int.random(in: 1...Self.history)
        var step = 300
        var steps = 0
        while !done.load(ordering: .relaxed) {
            let asked = clock.now
            client.write(Array("GET /api/state?at=\(point) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
            guard client.readResponse() != nil else {
                failures.withLock { $0 += 1 }
                return
            }
            let took = clock.now - asked
            answers.withLock { $0.append(took.secondsValue * 1000) }
            steps += 1
            if steps % 20 == 0 || !(1...Self.history).contains(point + step) { step = -step }
            point += step
            let rest = Duration.milliseconds(50) - took
            if rest > .zero { Thread.sleep(forTimeInterval: rest.secondsValue) }
        }
    }

    func note() -> String {
        func median(_ runs: [Percentiles]) -> String {
            guard !runs.isEmpty else { return "none" }
            let p50 = runs.map(\.p50).sorted()[runs.count / 2]
            let p99 = runs.map(\.p99).sorted()[runs.count / 2]
            return "p50 \(Int(p50.rounded())) µs, p99 \(Int(p99.rounded())) µs"
        }
        let (scrubbed, quiet) = latencies.withLock { $0 }
        let answered = answers.withLock { $0 }
        let answerTimes = Percentiles(answered)
        let failed = failures.withLock { $0 }
        let memory = resident.withLock { $0 }
        let share = readerShare.withLock { $0 }
        return "\(Self.rate) actions/s offered; dispatch latency scrubbing \(median(scrubbed)), quiet \(median(quiet)); "
            + "the reader thread took \(String(format: "%.1f", share.reader / Double(max(answered.count, 1)) * 1000)) ms cpu per past state, "
            + "\(String(format: "%.1f", share.reader / max(share.bus, 1e-9) * 100)) % of the bus's cpu while scrubbing; "
            + "\(answered.count) past states, answered in p50 \(String(format: "%.1f", answerTimes.p50)) ms, p99 \(String(format: "%.1f", answerTimes.p99)) ms"
            + "; bus RSS \(memory.quiet.map { String(format: "%.0f", $0) } ?? "?") MB before scrubbing, "
            + "\(memory.scrubbed.map { String(format: "%.0f", $0) } ?? "?") MB after"
            + "; " + threadCosts()
            + (failed > 0 ? "; \(failed) runs FAILED" : "")
    }

    /// The threads whose CPU per action grew most while scrubbing: `name +Δ (quiet → scrubbed)`
    /// in µs per action, the mean of the runs.
    private func threadCosts() -> String {
        let threads = threads.withLock { $0 }
        guard threads.scrubbedRuns > 0, threads.quietRuns > 0 else { return "no thread figures" }
        let names = Set(threads.scrubbed.keys).union(threads.quiet.keys)
        let costs = names.map { name in
            (name, (threads.quiet[name] ?? 0) / Double(threads.quietRuns) * 1e6, (threads.scrubbed[name] ?? 0) / Double(threads.scrubbedRuns) * 1e6)
        }.sorted { $0.2 - $0.1 > $1.2 - $1.1 }
        return "µs cpu/action by thread, quiet → scrubbing: " + costs.prefix(6).map { name, quiet, scrubbed in
            "\(name) \(String(format: "%.2f", quiet)) → \(String(format: "%.2f", scrubbed))"
        }.joined(separator: ", ")
    }
}
