import SwitchyardBusTesting
import Foundation
import LocationEmitterPlugin
import LoggerPlugin
import SwitchyardBus
import Testing

/// The offline demo config: the shipped route replayed through the location emitter into the
/// logger, headless, on a manual clock.
struct OfflineDemoTests {
    private static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The demo's config with the route path (relative to the config's directory) made absolute
    /// and the logger writing to `logFile`.
    private static func demoConfig(logFile: String) throws -> String {
        var document = try JSON(parsing: String(contentsOf: root.appendingPathComponent("Config/default.json"), encoding: .utf8))
        var plugins = try #require(document["plugins"]?.arrayValue)
        let route = try #require(plugins[0].value(atPath: "source.replay")?.stringValue)
        plugins[0]["source"]?["replay"] = .string(root.appendingPathComponent("Config").appendingPathComponent(route).path)
        plugins[1]["to"] = .string(logFile)
        document["plugins"] = .array(plugins)
        return document.serialized()
    }

    /// A lap at ten times real speed: location changes at least 25 m apart, each logged.
    @Test func replaysTheRouteIntoTheLogger() async throws {
        let logFile = FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-demo-\(UUID().uuidString).log").path
        defer { try? FileManager.default.removeItem(atPath: logFile) }
        let registry = PluginRegistry(LocationEmitterPlugin.self, LoggerPlugin.self)
        let bus = try TestBus(configuration: try Self.demoConfig(logFile: logFile), registry: registry, logLevel: .warning)
        #expect(await bus.start())

        // The route has 144 points 10 s apart: one lap is 143 s of clock time at speed 10.
        for _ in 0..<150 {
            #expect(await bus.waitForSleepers(atLeast: 1))
            bus.advance(by: .seconds(1))
        }
        try await bus.stop()

        let locations = bus.payloads("location/changed")
        #expect(locations.count > 20 && locations.count < 144, "\(locations.count) changes")
        for (previous, next) in zip(locations, locations.dropFirst()) {
            let a = Coordinate(previous), b = Coordinate(next)
            #expect(Self.haversine(a, b) >= 25, "\(a) → \(b)")
        }
        let logged = try String(contentsOfFile: logFile, encoding: .utf8).split(separator: "\n")
        #expect(logged.filter { $0.contains(" location/changed source=location ") }.count == locations.count)
        #expect(logged.contains { $0.contains(" location/availability source=location ") && $0.contains("\"available\"") })
    }

    private struct Coordinate: CustomStringConvertible {
        var latitude: Double
        var longitude: Double
        init(_ payload: JSON) {
            latitude = payload["latitude"]?.doubleValue ?? .nan
            longitude = payload["longitude"]?.doubleValue ?? .nan
        }
        var description: String { "\(latitude), \(longitude)" }
    }

    /// An independent haversine, so the check does not reuse the code under test.
    private static func haversine(_ a: Coordinate, _ b: Coordinate) -> Double {
        let radians = Double.pi / 180
        let dLat = (b.latitude - a.latitude) * radians
        let dLon = (b.longitude - a.longitude) * radians
        let h = pow(sin(dLat / 2), 2) + cos(a.latitude * radians) * cos(b.latitude * radians) * pow(sin(dLon / 2), 2)
        return 2 * 6_371_008.8 * asin(sqrt(h))
    }
}
