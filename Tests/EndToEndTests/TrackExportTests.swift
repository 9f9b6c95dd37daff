import Foundation
import SwitchyardTestSupport
import Testing

/// `switchyard journal export --gpx | --geojson` with the real executable, on a journal a real
/// bus recorded while its location emitter replayed the demo route.
@Suite(.serialized)
struct TrackExportTests {
    static let route = SwitchyardProcess.packageRoot.appendingPathComponent("Config/routes/wellington-waterfront.gpx").path
    static let schema = SwitchyardProcess.packageRoot.appendingPathComponent("Tests/Fixtures/gpx/gpx.xsd").path

    /// The points of the replayed route, read from the fixture: (latitude, longitude).
    static func routePoints() throws -> [(Double, Double)] {
        let text = try String(contentsOfFile: route, encoding: .utf8)
        let pattern = try NSRegularExpression(pattern: #"<trkpt lat="([-0-9.]+)" lon="([-0-9.]+)""#)
        return pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
            (Double(text[Range(match.range(at: 1), in: text)!])!, Double(text[Range(match.range(at: 2), in: text)!])!)
        }
    }

    /// A stopped bus whose `location` emitter replayed the whole route once, ×1000.
    static func record() async throws -> RunningBus {
        let bus = try await RunningBus.start(bus: #"{"name": "export"}"#, plugins: """
            [{"name": "location", "kind": "location-emitter", "distanceFilter": 0,
              "source": {"replay": "\(route)", "speed": 1000}}]
            """)
        let ended = try await eventually(timeout: .seconds(60), interval: .milliseconds(200)) {
            let shown = try await bus.client(["journal", "show", "location/availability"])
            return shown.stdout.contains("the replay of")
        }
        #expect(ended, "the replay did not end: \(bus.process.stderr)")
        #expect(await bus.stop() == 0)
        return bus
    }

    /// The GPX export is valid against the official GPX 1.1 schema and holds every replayed
    /// point, in order, with its elevation and time; --since keeps the later ones.
    @Test(.enabled(if: ExternalTool.xmllint.testsEnabled, "\(ExternalTool.xmllint.missingMessage)"))
    func gpxIsValidAndComplete() async throws {
        let bus = try await Self.record()
        let route = try Self.routePoints()
        let exported = try await bus.client(["journal", "export", "--gpx", "-o", "track.gpx"])
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(exported.stderr.contains("exported the location history to track.gpx"))
        let path = bus.directory.url.appendingPathComponent("track.gpx").path
        let valid = try await ExternalTool.xmllint.run(["--noout", "--schema", Self.schema, path])
        #expect(valid.status == 0, "\(valid.output)")
        #expect(valid.output.contains("validates"), "\(valid.output)")

        let text = try String(contentsOfFile: path, encoding: .utf8)
        let points = text.components(separatedBy: "<trkpt ").dropFirst()
        #expect(points.count == route.count)
        #expect(text.components(separatedBy: "<trk>").count == 2)
        #expect(text.contains("<name>location</name>"))
        let first = try #require(points.first)
        #expect(first.hasPrefix("lat=\"-41.2846\" lon=\"174.7779\"><ele>3</ele><time>2026-03-14T21:00:00.000Z</time>"), "\(first)")
        for (point, (latitude, longitude)) in zip(points, route) {
            #expect(point.hasPrefix("lat=\"\(Self.plain(latitude))\" lon=\"\(Self.plain(longitude))\""), "\(point)")
        }

        // The same through --since, from the tenth position's action id.
        let changed = try await bus.client(["journal", "show", "location/changed"])
        let ids = changed.stdout.split(separator: "\n").compactMap { object(String($0))["id"] as? Int }
        #expect(ids.count == route.count)
        let since = try await bus.client(["journal", "export", "--gpx", "--since", String(ids[9])])
        #expect(since.status == 0, "\(since.stderr)")
        #expect(since.stdout.components(separatedBy: "<trkpt ").count - 1 == route.count - 9)
    }

    /// The GeoJSON export is one LineString Feature of [longitude, latitude, altitude] positions
    /// with a time and an action id per position.
    @Test func geojsonHoldsTheTrack() async throws {
        let bus = try await Self.record()
        let route = try Self.routePoints()
        let exported = try await bus.client(["journal", "export", "--geojson", "--plugin", "location"])
        #expect(exported.status == 0, "\(exported.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(exported.stdout.utf8)) as? [String: Any])
        #expect(document["type"] as? String == "FeatureCollection")
        let features = try #require(document["features"] as? [[String: Any]])
        #expect(features.count == 1)
        let feature = try #require(features.first)
        let geometry = try #require(feature["geometry"] as? [String: Any])
        #expect(geometry["type"] as? String == "LineString")
        let coordinates = try #require(geometry["coordinates"] as? [[Double]])
        #expect(coordinates.count == route.count)
        #expect(coordinates.first == [174.7779, -41.2846, 3.0])
        for (position, (latitude, longitude)) in zip(coordinates, route) {
            #expect(position[0] == longitude && position[1] == latitude, "\(position)")
        }
        let properties = try #require(feature["properties"] as? [String: Any])
        #expect(properties["name"] as? String == "location")
        #expect(properties["kind"] as? String == "location-emitter")
        #expect(properties["points"] as? Int == route.count)
        #expect(properties["start"] as? String == "2026-03-14T21:00:00.000Z")
        let perPoint = try #require(properties["coordinateProperties"] as? [String: Any])
        #expect((perPoint["times"] as? [String])?.count == route.count)
        #expect((perPoint["actionIds"] as? [Int])?.count == route.count)
    }

    /// A session from a real gpsd playing a receiver capture: the gpsd plugin's fixes and the
    /// emitter's changes become two tracks, valid GPX, the same in GeoJSON.
    @Test(.enabled(if: GPSDProcess.testsEnabled, "\(GPSDProcess.missingMessage)"),
          .enabled(if: ExternalTool.xmllint.testsEnabled, "\(ExternalTool.xmllint.missingMessage)"))
    func gpsdSession() async throws {
        let gpsd = try await GPSDProcess.gpsfakeWithDevice(capture: SwitchyardProcess.packageRoot.path + "/Tests/Fixtures/gpsd-logs/nl2008u.log",
                                                           cycle: 0.05, once: true)
        defer { gpsd.stop() }
        let bus = try await RunningBus.start(bus: #"{"name": "receiver"}"#, plugins: """
            [{"name": "gps", "kind": "gpsd", "host": "127.0.0.1", "port": \(gpsd.port)},
             {"name": "location", "kind": "location-emitter", "source": {"plugin": "gps"}, "distanceFilter": 0}]
            """)
        // The capture plays once, in about 7 s: held until the bus watches.
        try await bus.play(gpsd)
        let recorded = try await eventually(timeout: .seconds(60), interval: .milliseconds(200)) {
            try await bus.client(["journal", "show", "location/changed"]).stdout.split(separator: "\n").count >= 5
        }
        #expect(recorded, "no fixes recorded; bus: \(bus.process.stderr.suffix(3000))\ngpsd: \(gpsd.log.suffix(2000))")
        #expect(await bus.stop() == 0)
        let fixes = try await bus.client(["journal", "show", "gps/fix"]).stdout.split(separator: "\n")
            .map { object(String($0))["payload"] as? [String: Any] ?? [:] }
            .filter { ($0["mode"] as? Int ?? 0) >= 2 && $0["lat"] != nil }

        let exported = try await bus.client(["journal", "export", "--gpx", "-o", "session.gpx"])
        #expect(exported.status == 0, "\(exported.stderr)")
        let path = bus.directory.url.appendingPathComponent("session.gpx").path
        let valid = try await ExternalTool.xmllint.run(["--noout", "--schema", Self.schema, path])
        #expect(valid.status == 0, "\(valid.output)")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("<name>gps</name>\n    <src>gpsd</src>"))
        #expect(text.contains("<name>location</name>\n    <src>location-emitter</src>"))

        let geojson = try await bus.client(["journal", "export", "--geojson", "--plugin", "gps"])
        #expect(geojson.status == 0, "\(geojson.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(geojson.stdout.utf8)) as? [String: Any])
        let feature = try #require((document["features"] as? [[String: Any]])?.first)
        let properties = try #require(feature["properties"] as? [String: Any])
        #expect(properties["kind"] as? String == "gpsd")
        #expect(properties["points"] as? Int == fixes.count)
        let first = try #require(fixes.first)
        let geometry = try #require(feature["geometry"] as? [String: Any])
        let line = (geometry["coordinates"] as? [[Double]]) ?? (geometry["coordinates"] as? [[[Double]]])?.first ?? []
        #expect(line.first?[0] == first["lon"] as? Double && line.first?[1] == first["lat"] as? Double, "\(line.first ?? []) vs \(first)")
    }

    /// Bad command lines exit 2 with what is wrong; a plugin without positions and a journal
    /// without any exit 1, naming what there is, and write nothing.
    @Test func badInput() async throws {
        let bus = try await Self.record()
        for (arguments, message) in [
            (["--gpx", "--geojson"], "--gpx and --geojson ask for different formats"),
            (["--format", "jsonl", "--gpx"], "--format jsonl and --gpx ask for different formats"),
            (["--format", "kml"], "--format expects jsonl, gpx or geojson, got \"kml\""),
            (["--plugin", "location"], "--plugin picks a track for --gpx or --geojson"),
            (["--gpx", "--types", "location/*"], "--types does not apply to --gpx"),
            (["--gpx", "--since", "1", "--from", "2"], "--since is the same as --from: give one of them"),
            (["--geojson", "--since", "9", "--until", "3"], "--since 9 is after --until 3: the range is empty"),
        ] {
            let result = try await bus.client(["journal", "export"] + arguments)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
        let unknown = try await bus.client(["journal", "export", "--gpx", "--plugin", "gps", "-o", "gps.gpx"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("no positions of a plugin called \"gps\" in the journal; plugins with positions: location"), "\(unknown.stderr)")
        #expect(!FileManager.default.fileExists(atPath: bus.directory.url.appendingPathComponent("gps.gpx").path))

        let empty = try await RunningBus.start(bus: #"{"name": "quiet"}"#)
        #expect(await empty.stop() == 0)
        let nothing = try await empty.client(["journal", "export", "--geojson"])
        #expect(nothing.status == 1)
        #expect(nothing.stderr.contains("no positions in the journal: no location-emitter NAME/changed or gpsd NAME/fix"), "\(nothing.stderr)")
        #expect(nothing.stdout.isEmpty)
    }

    /// `value` as the export writes it: up to 9 decimals, no trailing zeros.
    static func plain(_ value: Double) -> String {
        var text = String(format: "%.9f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
