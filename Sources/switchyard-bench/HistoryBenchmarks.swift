import Foundation
import SwitchyardBus
import Synchronization

/// The `history` benchmark case: the past of a bus, read from its journal (``StateHistory``).
///
/// - `history.state-at`: the time of one `state?at=` — the state right after a random action of
///   a journal of 1,000,000 actions written by a real in-process bus with the default snapshots
///   (every 10,000 actions, the newest two kept) — the median of 20 random points. Baseline: the
///   state after one of the newest 10,000 actions (a snapshot, then at most 10,000 reduced).
///   The note gives the p99 of every point asked.
func historyBenchmarks() -> [BenchmarkCase] {
    let session = HistoryBenchSession()
    return [
        BenchmarkCase(name: "history.state-at", unit: "ms", higherIsBetter: false, target: 1000,
                      measure: { await session.stateAt(recentOnly: false) }, baseline: { await session.stateAt(recentOnly: true) },
                      note: { session.note() }),
    ]
}

/// Keeps a running total of `bench/add` payloads: a slice whose value depends on every action.
private struct TotalPlugin: Plugin {
    static let kind = "bench-total"
    static let summary = "Sums bench/add payloads."
    static let settingDescriptions: [SettingDescription] = []

    init(name: String, settings: PluginSettings) throws {
        try settings.finish()
    }

    var slice: StateSlice? {
        StateSlice(initial: ["total": 0, "last": .null], actions: TypePattern("bench/*")!) { slice, action in
            slice["total"] = .integer(Int64((slice["total"]?.intValue ?? 0) + (action.payload.intValue ?? 0)))
            slice["last"] = action.payload
        }
    }

    func run(context: PluginContext) async throws {
        for await _ in context.actions {}
    }
}

private final class HistoryBenchSession: Sendable {
    static let actions = 1_000_000
    private let history = Mutex<StateHistory?>(nil)
    private let samples = Mutex<[Double]>([])

    /// Writes the journal once: a bus with the total plugin, 1,000,000 actions sent as fast as
    /// its inbox takes them, then stopped.
    private func recorded() async -> StateHistory {
        if let history = history.withLock({ $0 }) { return history }
        let directory = NSTemporaryDirectory() + "switchyard-bench-history-\(getpid())"
        removeAtExit(directory)
        var registry = PluginRegistry()
        registry.register(TotalPlugin.self)
        do {
            let configuration = try BusConfiguration.parse(
                #"{"bus": {"name": "history", "dataDirectory": "\#(directory)", "journal": {"fsync": "never"}}, "plugins": [{"name": "total", "kind": "bench-total"}]}"#,
                file: "history.json", environment: [:], knownKinds: registry.kinds)
            let bus = try Bus(configuration: configuration, registry: registry, services: BusServices(), log: LogSink(minimumLevel: .error))
            let running = Task { try await bus.run() }
            _ = await bus.waitUntilReady()
            for n in 1...Self.actions {
                let action = BusAction(type: "bench/add", payload: .integer(Int64(n % 97)), source: "bench")
                if !bus.send(action) { await bus.dispatch(action) }
            }
            bus.stop()
            try await running.value
            let made = StateHistory(dataDirectory: directory, model: try BusStateModel(configuration: configuration, registry: registry))
            history.withLock { $0 = made }
            return made
        } catch {
            print("switchyard-bench: history: \(error)")
            exit(1)
        }
    }

    /// The median milliseconds of 20 `moment(at:)` at random ids (or among the newest 10,000).
    func stateAt(recentOnly: Bool) async -> Double {
        let history = await recorded()
        guard let last = try? history.latestID() else { return .infinity }
        var times: [Double] = []
        let clock = ContinuousClock()
        for _ in 0..<20 {
            let id = recentOnly ? UInt64.random(in: max(1, last - 10_000)...last) : UInt64.random(in: 1...last)
            let start = clock.now
            guard (try? history.moment(at: .id(id))) != nil else { return .infinity }
            times.append((clock.now - start).secondsValue * 1000)
        }
        if !recentOnly { samples.withLock { $0 += times } }
        return Percentiles(times).p50
    }

    func note() -> String {
        let all = Percentiles(samples.withLock { $0 })
        return "random points of \(Self.actions) actions: p50 \(Int(all.p50)) ms, p99 \(Int(all.p99)) ms"
    }
}
