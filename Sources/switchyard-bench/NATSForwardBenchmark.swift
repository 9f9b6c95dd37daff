import Foundation
import NATSPlugin
import SwitchyardBus

/// The publish window of `nats.forward.jetstream`, the bridge's default, which its baseline uses too.
let forwardWindow = 256

/// `nats.forward.jetstream`: a bus with a journal publishing to JetStream from the journal
/// (store-and-forward): actions dispatched as fast as the bus takes them, per second until
/// the stream holds them all (asked of the server every 2 ms).
func forwardThroughput(count: Int) async -> Double {
    guard let server = NATSBenchServer() else { return 0 }
    defer { server.stop() }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-bench-forward-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    var registry = PluginRegistry()
    registry.register(NATSPlugin.self)
    let text = """
        {"bus": {"name": "bench-a", "inboxCapacity": 16384, "dataDirectory": "\(directory.path)"},
         "plugins": [{"name": "nats", "kind": "nats", "url": "\(server.url)", "mode": "jetstream", "publish": "bench/*",
                      "publishWindow": \(forwardWindow), "stream": {"name": "BENCH", "subjects": ["switchyard.>"]}}]}
        """
    guard let configuration = try? BusConfiguration.parse(text, file: "bench", environment: [:], registry: registry),
          let bus = try? Bus(configuration: configuration, registry: registry, services: BusServices(),
                             log: LogSink(minimumLevel: .warning)),
          let probe = RawSession(port: server.port, subscribing: false)
    else { return 0 }
    defer { close(probe.descriptor) }
    RawNATS.subscribeToInfo(probe)
    let running = Task { try await bus.run() }
    for await state in bus.states where state["nats"]?["status"] == "connected" { break }
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: .seconds(60))
    let figure = await throughput(count: count) {
        for _ in 0..<count {
            let action = BusAction(type: "bench/tick", payload: fixPayload, source: "bench")
            if !bus.send(action) { await bus.dispatch(action) }
        }
        while (RawNATS.messages(in: "BENCH", session: probe) ?? 0) < count {
            // A measurement that stalls ends rather than hangs; its figure then says so by being small.
            guard clock.now < deadline else {
                print("nats: a measurement took over 60 s; stopping it")
                return
            }
            try? await Task.sleep(for: .milliseconds(2))
        }
    }
    bus.stop()
    _ = await running.result
    return figure
}
