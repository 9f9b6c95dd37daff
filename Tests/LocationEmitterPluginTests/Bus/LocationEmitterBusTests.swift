import SwitchyardBusTesting
import Foundation
@testable import LocationEmitterPlugin
import SwitchyardBus
import Testing

/// The location-emitter plugin on a bus: sources, filters on the bus clock, state.
struct LocationEmitterBusTests {
    private func availability(_ bus: TestBus) -> [String] {
        bus.actions("location/availability").compactMap { $0.payload["availability"]?.stringValue }
    }

    /// A static position is available at once, emitted once, and kept in state.
    @Test func staticSource() async throws {
        let bus = try TestBus(configuration: #"""
            {"plugins": [{"name": "location", "kind": "location-emitter",
              "source": {"static": {"latitude": -33.8688, "longitude": 151.2093, "altitude": 58}}}]}
            """#, registry: PluginRegistry(LocationEmitterPlugin.self))
        #expect(await bus.start())
        await bus.waitFor("location/changed", count: 1)
        let changed = try #require(bus.actions("location/changed").first)
        #expect(changed.payload["latitude"] == -33.8688)
        #expect(changed.payload["longitude"] == 151.2093)
        #expect(changed.payload["mode"] == 3)
        #expect(changed.payload["source"] == "static")
        #expect(changed.payload["timestamp"]?.stringValue.flatMap(Timestamp.parseISO8601) != nil)
        #expect(availability(bus) == ["available"])
        #expect(bus.state.value(atPath: "location.location.latitude") == -33.8688)
        #expect(bus.state.value(atPath: "location.availability") == "available")
        try await bus.stop()
    }

    /// Fixes from a gpsd plugin: availability, causes, and the minimum interval on the bus clock.
    @Test func pluginSourceOnTheBusClock() async throws {
        // Fixes from a gpsd plugin's actions: status drives availability, every change names
        // the fix that caused it, and the minimum interval runs on the bus clock at receipt.
        let bus = try TestBus(configuration: #"""
            {"plugins": [{"name": "location", "kind": "location-emitter", "source": {"plugin": "gps"},
              "minInterval": 1, "maxHorizontalError": 50}]}
            """#, registry: PluginRegistry(LocationEmitterPlugin.self))
        #expect(await bus.start())
        await bus.dispatch("gps/status", ["status": "connected"], source: "gps")
        await bus.waitFor("location/availability", count: 1)
        await bus.dispatch("gps/fix", ["mode": 1, "time": "2035-05-26T09:12:30.000Z"], source: "gps")
        let first = await bus.dispatch("gps/fix", ["mode": 3, "lat": 48.1, "lon": 11.5, "eph": 12, "time": "2035-05-26T09:12:31.000Z"], source: "gps")
        await bus.waitFor("location/changed", count: 1)
        #expect(bus.actions("location/changed").first?.cause == first?.id)
        bus.advance(by: .milliseconds(500))
        await bus.dispatch("gps/fix", ["mode": 3, "lat": 48.2, "lon": 11.5, "eph": 12, "time": "2035-05-26T09:12:32.000Z"], source: "gps")
        await bus.dispatch("gps/fix", ["mode": 3, "lat": 48.3, "lon": 11.5, "eph": 80, "time": "2035-05-26T09:12:33.000Z"], source: "gps")
        bus.advance(by: .milliseconds(500))
        await bus.dispatch("gps/fix", ["mode": 3, "lat": 48.4, "lon": 11.5, "eph": 12, "time": "2035-05-26T09:12:34.000Z"], source: "gps")
        await bus.waitFor("location/changed", count: 2)
        await bus.dispatch("gps/status", ["status": "disconnected"], source: "gps")
        await bus.waitFor("location/availability", count: 3)
        try await bus.stop()
        #expect(bus.actions("location/changed").map { $0.payload["latitude"] } == [48.1, 48.4])
        #expect(availability(bus) == ["searching", "available", "unavailable"])
        #expect(bus.state.value(atPath: "location.location.latitude") == 48.4)
    }

    /// A replay runs on the bus clock at its speed, filtered by distance, and ends unavailable.
    @Test func replayOnTheBusClock() async throws {
        // A replay runs on the bus clock at its speed, filtered by distance, and ends
        // unavailable with the last location kept.
        let route = """
            <gpx version="1.1" creator="test"><trk><trkseg>
            <trkpt lat="-41.2846" lon="174.7779"><ele>3</ele><time>2026-03-14T21:00:00Z</time></trkpt>
            <trkpt lat="-41.2847" lon="174.7779"><ele>3</ele><time>2026-03-14T21:00:10Z</time></trkpt>
            <trkpt lat="-41.2850" lon="174.7779"><ele>3</ele><time>2026-03-14T21:00:20Z</time></trkpt>
            </trkseg></trk></gpx>
            """
        try await Fixtures.withTemporaryFile(route) { path in
            let bus = try TestBus(configuration: """
                {"plugins": [{"name": "location", "kind": "location-emitter",
                  "source": {"replay": "\(path)", "speed": 10}, "distanceFilter": 25}]}
                """, registry: PluginRegistry(LocationEmitterPlugin.self))
            #expect(await bus.start())
            await bus.waitFor("location/changed", count: 1)
            #expect(await bus.waitForSleepers(atLeast: 1))
            bus.advance(by: .seconds(1))
            #expect(await bus.waitForSleepers(atLeast: 1))
            #expect(bus.actions("location/changed").count == 1)
            bus.advance(by: .seconds(1))
            await bus.waitFor("location/changed", count: 2)
            await bus.waitFor("location/availability", count: 3)
            try await bus.stop()
            #expect(availability(bus) == ["searching", "available", "unavailable"])
            #expect(bus.actions("location/changed").map { $0.payload["latitude"] } == [-41.2846, -41.285])
            #expect(bus.actions("location/changed").first?.payload["timestamp"] == "2026-03-14T21:00:00.000Z")
            #expect(bus.state.value(atPath: "location.location.latitude") == -41.285)
        }
    }
}

extension Fixtures {
    /// ``withTemporaryFile(_:_:)`` for an asynchronous body.
    static func withTemporaryFile(_ text: String, _ body: (String) async throws -> Void) async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-location-\(UUID().uuidString)").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await body(path)
    }
}
