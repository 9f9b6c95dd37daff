import GPSDPlugin
import LocationEmitterPlugin
import Switchyard
import Synchronization

/// A bus with the gpsd and location-emitter plugins, started from a config text, recording
/// every reduced action.
struct RunningBus {
    let bus: Bus
    let recorder = ActionRecorder()
    let log = LogLines()
    private let running: Task<Void, any Error>
    private let collecting: Task<Void, Never>

    /// The bus's log lines, for failure messages.
    final class LogLines: Sendable {
        private let lines = Mutex<[String]>([])
        func append(_ line: String) { lines.withLock { $0.append(line) } }
        var text: String { lines.withLock { $0.joined(separator: "\n") } }
    }

    /// Parses `config`, starts the bus and waits until it is ready.
    init(_ config: String, clock: any Clock<Duration> = ContinuousClock()) async throws {
        var registry = PluginRegistry()
        registry.register(GPSDPlugin.self)
        registry.register(LocationEmitterPlugin.self)
        let configuration = try BusConfiguration.parse(config, file: "test.json", environment: [:], knownKinds: registry.kinds)
        let log = log
        let bus = try Bus(
            configuration: configuration, registry: registry, clock: clock,
            log: LogSink(minimumLevel: .info) { log.append($0) })
        self.bus = bus
        let actions = bus.actions()
        let recorder = recorder
        collecting = Task { for await action in actions { recorder.record(action) } }
        running = Task { try await bus.run() }
        await bus.waitUntilReady()
    }

    /// Stops the bus and waits until it and the recording have ended.
    func stop() async throws {
        bus.stop()
        try await running.value
        await collecting.value
    }
}

extension ActionRecorder {
    /// The availability values of `location/availability`, in order.
    var availabilities: [String] {
        payloads("location/availability").compactMap { $0["availability"]?.stringValue }
    }

    /// The `gps/status` values among `records`, in order.
    static func gpsStatuses(_ records: [Record]) -> [String] {
        records.filter { $0.event == "gps/status" }.compactMap { $0.payload["status"]?.stringValue }
    }

    /// Whether gpsd reported the device of a capture played once gone, and the location
    /// emitter has handled the `no-device` status that came before it.
    static func captureFinished(_ records: [Record]) -> Bool {
        guard records.contains(where: { $0.event == "gps/device" && $0.payload["active"] == false }),
            let noDevice = records.lastIndex(where: { $0.event == "gps/status" && $0.payload["status"] == "no-device" })
        else { return false }
        return records[noDevice...].contains { $0.event == "location/availability" && $0.payload["availability"] == "unavailable" }
    }
}
