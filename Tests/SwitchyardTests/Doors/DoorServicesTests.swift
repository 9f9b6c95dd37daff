import Foundation
import Testing
@testable import SwitchyardBus
@testable import SwitchyardDoors

/// `.doors()` serves what `switchyard run` serves, named on the ready line as before the doors
/// became services, and counted in the bus's statistics.
struct DoorServicesTests {
    private func makeBus(_ directory: JournalTestDirectory, http: Bool, serving: [any BusService], log: LogSink) throws -> Bus {
        let registry = journalRegistry()
        let listen = http ? #", "http": {"listen": "127.0.0.1:0"}"# : ""
        let configuration = try BusConfiguration.parse(
            #"{"bus": {"name": "doors", "dataDirectory": "\#(directory.path)/data"\#(listen)}, "plugins": [{"name": "counter", "kind": "counter"}]}"#,
            file: "doors.json", environment: [:], knownKinds: registry.kinds)
        return try Bus(configuration: configuration, registry: registry, services: BusServices(), serving: serving, log: log)
    }

    /// The ready line names the control socket, then HTTP's URL; `stats` counts both doors.
    @Test func readyLineNamesBothDoors() async throws {
        let directory = try JournalTestDirectory()
        let log = LogCollector()
        let bus = try makeBus(directory, http: true, serving: .doors(), log: log.sink)
        let running = Task { try await bus.run() }
        #expect(await bus.waitUntilReady())
        let statistics = bus.statistics
        let socket = directory.path + "/data/control.sock"
        #expect(statistics.control?.socketPath == socket)
        let listen = try #require(statistics.http?.listen)
        let ready = log.lines.first { $0.contains("ready: bus") } ?? ""
        #expect(ready.hasSuffix(#"ready: bus "doors" with 1 plugin (counter); control socket \#(socket); http http://\#(listen)/"#))
        bus.stop()
        try await running.value
        #expect(!FileManager.default.fileExists(atPath: socket))
    }

    /// Without a control socket (a replay with effects off, say) the ready line names none and
    /// the statistics have no `control`, as `BusServices(controlSocket: false)` did.
    @Test func doorsWithoutTheControlSocket() async throws {
        let directory = try JournalTestDirectory()
        let log = LogCollector()
        let bus = try makeBus(directory, http: false, serving: .doors(controlSocket: false), log: log.sink)
        let running = Task { try await bus.run() }
        #expect(await bus.waitUntilReady())
        #expect(bus.statistics.control == nil)
        #expect(bus.statistics.http == nil)
        #expect(log.lines.contains { $0.hasSuffix(#"ready: bus "doors" with 1 plugin (counter)"#) })
        bus.stop()
        try await running.value
    }
}
