import Foundation
import SwitchyardBus
import Testing
@testable import switchyard

/// The fold that turns journaled actions into tracks for `journal export --gpx|--geojson`.
struct LocationHistoryTests {
    /// Actions numbered in order, a second apart.
    private struct Actions {
        var list: [BusAction] = []

        mutating func add(_ type: String, _ payload: JSON, source: String? = nil) {
            let id = UInt64(list.count + 1)
            list.append(BusAction(type: type, payload: payload, id: id, time: Date(timeIntervalSince1970: 1_700_000_000 + Double(id)),
                                  source: source ?? String(type.split(separator: "/")[0]), cause: nil))
        }
    }

    private func history(_ build: (inout Actions) -> Void) -> [LocationTrack] {
        var actions = Actions()
        build(&actions)
        var history = LocationHistory(sources: BuiltInPlugins.registry.positionSources)
        for action in actions.list { history.add(action) }
        return history.tracks
    }

    /// gpsd fixes of mode 2 and 3 are points (altMSL, eph, track as altitude, accuracy, course);
    /// a mode-1 fix, a fix without a position and one out of range are not.
    @Test func gpsdFixes() throws {
        let tracks = history { test in
            test.add("gps/fix", ["mode": 1, "time": "2026-01-01T00:00:00Z"])
            test.add("gps/fix", ["mode": 3, "lat": 52.5, "lon": 13.25, "altMSL": 40.5, "altHAE": 80, "eph": 4.5, "track": 90, "speed": 2,
                                    "time": "2026-01-01T00:00:01.5Z"])
            test.add("gps/fix", ["mode": 2, "lat": 52.6, "lon": 13.5])
            test.add("gps/fix", ["mode": 3])
            test.add("gps/fix", ["mode": 3, "lat": 91, "lon": 0])
        }
        let track = try #require(tracks.first)
        #expect(tracks.count == 1)
        #expect(track.kind == "gpsd")
        #expect(track.segments.count == 1)
        let points = track.points
        #expect(points.count == 2)
        #expect(points[0] == TrackPoint(latitude: 52.5, longitude: 13.25, altitude: 40.5, time: Timestamp.parseISO8601("2026-01-01T00:00:01.5Z")!,
                                        horizontalAccuracy: 4.5, speed: 2, course: 90, mode: 3, actionID: 2))
        // No time in the fix: the time the bus reduced it.
        #expect(points[1].time == Date(timeIntervalSince1970: 1_700_000_003))
    }

    /// Positions are told by their contract: an `X/changed` from another source, or without
    /// numeric coordinates, is not one.
    @Test func onlyContractActions() {
        let tracks = history { test in
            test.add("location/changed", ["latitude": 1, "longitude": 2], source: "control")
            test.add("places/changed", ["value": 3])
            test.add("location/changed", ["latitude": "1", "longitude": 2])
            test.add("gps/fix", ["mode": 3, "latitude": 1, "longitude": 2])
        }
        #expect(tracks.isEmpty)
    }

    /// A new bus run, an emitter that is no longer available and a gpsd feed that is no longer
    /// connected each start a new segment of that plugin's track only.
    @Test func segments() {
        let tracks = history { test in
            test.add("location/changed", ["latitude": 1, "longitude": 1])
            test.add("gps/fix", ["mode": 2, "lat": 5, "lon": 5])
            test.add("location/availability", ["availability": "searching"])
            test.add("location/changed", ["latitude": 1, "longitude": 2])
            test.add("gps/fix", ["mode": 2, "lat": 5, "lon": 6])
            test.add("gps/status", ["status": "stale"])
            test.add("gps/fix", ["mode": 2, "lat": 5, "lon": 7])
            test.add("location/availability", ["availability": "available"])
            test.add("location/changed", ["latitude": 1, "longitude": 3])
            test.add("bus/started", ["name": "x"], source: "bus")
            test.add("location/changed", ["latitude": 1, "longitude": 4])
            test.add("gps/fix", ["mode": 2, "lat": 5, "lon": 8])
        }
        #expect(tracks.map(\.plugin) == ["location", "gps"])
        #expect(tracks[0].segments.map { $0.map(\.longitude) } == [[1], [2, 3], [4]])
        #expect(tracks[1].segments.map { $0.map(\.longitude) } == [[5, 6], [7], [8]])
    }

    /// GPX numbers are plain decimals: the schema's xsd:decimal has no exponent.
    @Test(arguments: [(0.00001, 9, "0.00001"), (-41.2846, 9, "-41.2846"), (3.0, 3, "3"), (-0.0000000001, 9, "0"), (1e20, 3, "100000000000000000000")])
    func decimals(value: Double, places: Int, expected: String) {
        #expect(GPXDocument.decimal(value, places) == expected)
    }

    /// A track with a lone-point segment is still valid GeoJSON: the point is written twice,
    /// and with two segments the geometry is a MultiLineString.
    @Test func geojsonSegments() {
        let point = TrackPoint(latitude: 1, longitude: 2, time: Date(timeIntervalSince1970: 0), actionID: 7)
        let track = LocationTrack(plugin: "gps", kind: "gpsd", segments: [[point], [point, point]])
        let geometry = GeoJSONDocument.render([track])["features"]?.arrayValue?.first?["geometry"]
        #expect(geometry?["type"] == "MultiLineString")
        #expect(geometry?["coordinates"] == [[[2.0, 1.0], [2.0, 1.0]], [[2.0, 1.0], [2.0, 1.0]]])
    }
}
