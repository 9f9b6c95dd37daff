import Foundation
import NATSPlugin
import SwitchyardBus
import SwitchyardIO

/// The `nats` benchmark cases: two buses in this process bridged by `nats` plugins through a
/// real nats-server on 127.0.0.1 (started per measurement, so every run has a fresh store).
///
/// `nats.bridge` (core and jetstream): actions dispatched on bus A as fast as it takes them,
/// per second until bus B reduced them all. `nats.latency` p50 and p99: one action at a time,
/// from dispatch on A to its arrival on B, in milliseconds. The baseline is a plain NATS
/// client on the same server: raw publishes of the same payload read back by a subscriber.
/// Without nats-server (Debian package nats-server) the cases are left out.
func natsBenchmarks() -> [BenchmarkCase] {
    guard NATSBenchServer.executable != nil else {
        print("nats: cases skipped, nats-server is not installed (Debian package nats-server)")
        return []
    }
    let count = 20_000
    let forwardCount = 50_000
    let samples = 1_000
    let coreCPU = CPUPerAction()
    return [
        BenchmarkCase(name: "nats.bridge.core", unit: "actions/s", ratioTarget: 0.7,
                      measure: { await bridgeThroughput(mode: "core", count: count, cpu: coreCPU) },
                      baseline: { await RawNATS.throughput(count: count) },
                      note: { coreCPU.note }),
        BenchmarkCase(name: "nats.bridge.jetstream", unit: "actions/s",
                      measure: { await bridgeThroughput(mode: "jetstream", count: count) },
                      baseline: { await RawNATS.throughput(count: count) }),
        BenchmarkCase(name: "nats.forward.jetstream", unit: "actions/s", target: 100_000,
                      measure: { await forwardThroughput(count: forwardCount) },
                      baseline: { await RawNATS.jetStreamThroughput(count: forwardCount, window: forwardWindow) }),
        BenchmarkCase(name: "nats.latency.p50", unit: "ms", higherIsBetter: false,
                      measure: { await bridgeLatency(samples: samples, quantile: 0.5) },
                      baseline: { await RawNATS.latency(samples: samples, quantile: 0.5) }),
        BenchmarkCase(name: "nats.latency.p99", unit: "ms", higherIsBetter: false,
                      measure: { await bridgeLatency(samples: samples, quantile: 0.99) },
                      baseline: { await RawNATS.latency(samples: samples, quantile: 0.99) }),
    ]
}

/// A payload of the size of a location fix.
let fixPayload: JSON = ["device": "truck-a", "mode": 3, "lat": 48.8584, "lon": 2.2945, "speed": 12.5, "track": 271.3]

/// Runs `body` with buses A and B bridged through a fresh server, both connected; 0 when
/// anything fails.
private func withBridgedBuses(mode: String, _ body: (Bus, Bus) async -> Double) async -> Double {
    guard let server = NATSBenchServer() else { return 0 }
    defer { server.stop() }
    var registry = PluginRegistry()
    registry.register(NATSPlugin.self)
    func bus(_ name: String) -> Bus? {
        let text = """
            {"bus": {"name": "\(name)", "inboxCapacity": 16384}, "plugins": [{"name": "nats", "kind": "nats", "url": "\(server.url)",
             "mode": "\(mode)", "publish": "bench/*", "subscribe": "switchyard.bench.>", "bufferSize": 100000}]}
            """
        guard let configuration = try? BusConfiguration.parse(text, file: "bench", environment: [:], registry: registry) else { return nil }
        return try? Bus(configuration: configuration, registry: registry, log: LogSink(minimumLevel: .warning))
    }
    guard let a = bus("bench-a"), let b = bus("bench-b") else { return 0 }
    let running = [Task { try await a.run() }, Task { try await b.run() }]
    defer { for task in running { task.cancel() } }
    for bus in [a, b] {
        for await state in bus.states where state["nats"]?["status"] == "connected" { break }
    }
    // Core NATS may lose a message; rather than wait forever, a stopped bus ends the
    // measurement (its figure is then meaningless, and says so by being tiny).
    let watchdog = Task {
        try await Task.sleep(for: .seconds(60))
        print("nats: a measurement took over 60 s; stopping it")
        a.stop()
        b.stop()
    }
    defer { watchdog.cancel() }
    let figure = await body(a, b)
    for (bus, task) in zip([a, b], running) {
        bus.stop()
        _ = await task.result
    }
    return figure
}

private func bridgeThroughput(mode: String, count: Int, cpu: CPUPerAction? = nil) async -> Double {
    await withBridgedBuses(mode: mode) { a, b in
        let arrivals = b.actions(matching: TypePattern("bench/tick") ?? .all, bufferSize: 8192)
        let cpuBefore = CPUPerAction.processTime()
        defer { cpu?.record(CPUPerAction.processTime() - cpuBefore, actions: count) }
        return await throughput(count: count) {
            async let received: Void = {
                var seen = 0
                for await _ in arrivals {
                    seen += 1
                    if seen == count { return }
                }
            }()
            for _ in 0..<count {
                let action = BusAction(type: "bench/tick", payload: fixPayload, source: "bench")
                if !a.send(action) { await a.dispatch(action) }
            }
            await received
        }
    }
}

private func bridgeLatency(samples: Int, quantile: Double) async -> Double {
    await withBridgedBuses(mode: "core") { a, b in
        var arrivals = b.actions(matching: TypePattern("bench/ping") ?? .all).makeAsyncIterator()
        let clock = ContinuousClock()
        var latencies: [Duration] = []
        for _ in 0..<samples {
            let start = clock.now
            await a.dispatch(BusAction(type: "bench/ping", payload: fixPayload, source: "bench"))
            guard await arrivals.next() != nil else { break }
            latencies.append(start.duration(to: clock.now))
        }
        return milliseconds(percentile(latencies, quantile))
    }
}

func percentile(_ values: [Duration], _ quantile: Double) -> Duration {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .zero }
    return sorted[min(sorted.count - 1, Int((Double(sorted.count) * quantile).rounded(.down)))]
}

func milliseconds(_ duration: Duration) -> Double {
    duration.secondsValue * 1000
}
