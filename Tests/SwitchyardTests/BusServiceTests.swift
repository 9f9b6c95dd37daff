import Foundation
import Synchronization
import Testing
@testable import SwitchyardBus

/// What the services of one test wrote down, in order.
private final class ServiceEvents: Sendable {
    private let events = Mutex<[String]>([])
    func append(_ event: String) { events.withLock { $0.append(event) } }
    var all: [String] { events.withLock { $0 } }
}

/// A service that writes down when the bus starts and stops it, and what the plugins were
/// doing then; it fails to start when told to.
private final class RecordingService: BusService {
    let name: String
    let failure: BusError?
    let events: ServiceEvents

    init(_ name: String, failing failure: BusError? = nil, into events: ServiceEvents) {
        self.name = name
        self.failure = failure
        self.events = events
    }

    func start(on bus: Bus) throws(BusError) -> String? {
        let statuses = bus.statistics.plugins.map(\.status.rawValue).joined(separator: ",")
        events.append("start \(name) (plugins \(statuses))")
        if let failure { throw failure }
        return "\(name) at nowhere"
    }

    func stop(grace: Duration) async {
        events.append("stop \(name)")
    }

    func report(into statistics: inout BusStatistics) {
        statistics.control = ControlStatistics(socketPath: "reported by \(name)")
    }
}

/// The bus runs the services it is given around its plugins, and builds none itself.
struct BusServiceTests {
    private func makeBus(_ directory: JournalTestDirectory, serving: [any BusService]) throws -> Bus {
        let registry = journalRegistry()
        let configuration = try journaledConfiguration(directory.path + "/data", plugins: #"[{"name": "counter", "kind": "counter"}]"#, registry: registry)
        return try Bus(configuration: configuration, registry: registry, services: BusServices(), serving: serving,
                       log: LogSink(minimumLevel: .error))
    }

    /// Services start in order before the first plugin starts and stop in reverse order once
    /// the last plugin has stopped; their counters are in the bus's statistics.
    @Test func servicesRunAroundThePlugins() async throws {
        let directory = try JournalTestDirectory()
        let events = ServiceEvents()
        let bus = try makeBus(directory, serving: [RecordingService("first", into: events), RecordingService("second", into: events)])
        let running = Task { try await bus.run() }
        #expect(await bus.waitUntilReady())
        #expect(bus.statistics.control?.socketPath == "reported by second")
        bus.stop()
        try await running.value
        #expect(events.all == ["start first (plugins pending)", "start second (plugins pending)", "stop second", "stop first"])
        #expect(bus.statistics.plugins.map(\.status) == [PluginStatus.stopped])
    }

    /// A service that cannot start stops the bus before any plugin starts: the services started
    /// before it are stopped, its error is what `run` throws, and the data directory is free.
    @Test func aServiceThatCannotStartStopsTheStart() async throws {
        let directory = try JournalTestDirectory()
        let events = ServiceEvents()
        let refused = BusError.controlSocket("/nowhere", reason: "refused by the test")
        let bus = try makeBus(directory, serving: [RecordingService("first", into: events), RecordingService("second", failing: refused, into: events),
                                                   RecordingService("third", into: events)])
        await #expect(throws: refused) { try await bus.run() }
        #expect(events.all == ["start first (plugins pending)", "start second (plugins pending)", "stop first"])
        #expect(bus.statistics.plugins.map(\.status) == [PluginStatus.pending])
        _ = try makeBus(directory, serving: [])
    }

    /// Without services the bus serves nothing: no control socket appears in its data directory.
    @Test func aBusWithoutServicesServesNothing() async throws {
        let directory = try JournalTestDirectory()
        let bus = try makeBus(directory, serving: [])
        let running = Task { try await bus.run() }
        #expect(await bus.waitUntilReady())
        #expect(!FileManager.default.fileExists(atPath: BusServices.socketPath(dataDirectory: directory.path + "/data")))
        #expect(bus.statistics.control == nil)
        bus.stop()
        try await running.value
    }
}
