import FoundationEssentials
import SwitchyardBus

/// A GeoJSON FeatureCollection (RFC 7946) of location tracks: one Feature per plugin, a
/// LineString (a MultiLineString when the track has several segments) of `[longitude,
/// latitude, altitude]` positions — the altitude only when every point of the track has one.
///
/// Properties: `name` (the plugin), `kind`, `points`, `start` and `end` times, and, per position
/// in the same nesting as the coordinates, `coordinateProperties` with `times`, `actionIds`,
/// and `horizontalAccuracies`, `speeds`, `courses` and `modes` where any point has them
/// (`null` where one lacks it) — the convention of togeojson and Mapbox tools for per-point values.
/// A segment of one point repeats it, since a line needs two positions.
enum GeoJSONDocument {
    static func render(_ tracks: [LocationTrack]) -> JSON {
        .object(["type": "FeatureCollection", "features": .array(tracks.map(feature))])
    }

    private static func feature(_ track: LocationTrack) -> JSON {
        let points = track.points
        let withAltitude = points.allSatisfy { $0.altitude != nil }
        let single = track.segments.count == 1
        func nested(_ value: (TrackPoint) -> JSON) -> JSON {
            // RFC 7946 wants two positions in a line: a lone point is written twice.
            let segments = track.segments.map { JSON.array(($0.count == 1 ? $0 + $0 : $0).map(value)) }
            return single ? segments[0] : .array(segments)
        }
        let coordinates = nested { point in
            var position: [JSON] = [.number(point.longitude), .number(point.latitude)]
            if withAltitude, let altitude = point.altitude { position.append(.number(altitude)) }
            return .array(position)
        }
        var perPoint: [String: JSON] = [
            "times": nested { .string(Timestamp.iso8601($0.time)) },
            "actionIds": nested { .integer(Int64(clamping: $0.actionID)) },
        ]
        let optional: [(String, (TrackPoint) -> JSON)] = [
            ("horizontalAccuracies", { $0.horizontalAccuracy.map(JSON.number) ?? .null }),
            ("speeds", { $0.speed.map(JSON.number) ?? .null }),
            ("courses", { $0.course.map(JSON.number) ?? .null }),
            ("modes", { $0.mode.map { JSON.integer(Int64($0)) } ?? .null }),
        ]
        for (key, value) in optional where points.contains(where: { !value($0).isNull }) {
            perPoint[key] = nested(value)
        }
        var properties: [String: JSON] = [
            "name": .string(track.plugin),
            "kind": .string(track.kind),
            "points": .integer(Int64(points.count)),
            "coordinateProperties": .object(perPoint),
        ]
        if let first = points.first, let last = points.last {
            properties["start"] = .string(Timestamp.iso8601(first.time))
            properties["end"] = .string(Timestamp.iso8601(last.time))
        }
        return .object([
            "type": "Feature",
            "geometry": .object(["type": .string(single ? "LineString" : "MultiLineString"), "coordinates": coordinates]),
            "properties": .object(properties),
        ])
    }
}
