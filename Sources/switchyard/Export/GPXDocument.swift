import FoundationEssentials
import Glibc
import SwitchyardBus

/// A GPX 1.1 document (https://www.topografix.com/GPX/1/1/gpx.xsd) of location tracks: a
/// `trk` per plugin named after it, a `trkseg` per segment, and per point `ele`, `time`, `src`
/// (the plugin) and `fix` (`2d`/`3d`) where known. GPX 1.1 has no speed or course; they go into
/// Garmin's TrackPointExtension v2, which map tools read. Valid against the schema:
/// numbers are plain decimals (the schema's `xsd:decimal` has no exponent), longitudes in
/// [-180, 180) and times in UTC.
enum GPXDocument {
    static let extensionNamespace = "http://www.garmin.com/xmlschemas/TrackPointExtension/v2"

    /// The document, written at `created`.
    static func render(_ tracks: [LocationTrack], created: Date) -> String {
        var text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="switchyard \(SwitchyardCommand.version)" xmlns="http://www.topografix.com/GPX/1/1" \
            xmlns:gpxtpx="\(extensionNamespace)">
              <metadata>
                <time>\(Timestamp.iso8601(created))</time>

            """
        let points = tracks.flatMap(\.points)
        if let first = points.first {
            var bounds = (minLatitude: first.latitude, minLongitude: first.longitude, maxLatitude: first.latitude, maxLongitude: first.longitude)
            for point in points {
                bounds.minLatitude = min(bounds.minLatitude, point.latitude)
                bounds.maxLatitude = max(bounds.maxLatitude, point.latitude)
                bounds.minLongitude = min(bounds.minLongitude, longitude(point.longitude))
                bounds.maxLongitude = max(bounds.maxLongitude, longitude(point.longitude))
            }
            text += "    <bounds minlat=\"\(decimal(bounds.minLatitude, 9))\" minlon=\"\(decimal(bounds.minLongitude, 9))\" "
                + "maxlat=\"\(decimal(bounds.maxLatitude, 9))\" maxlon=\"\(decimal(bounds.maxLongitude, 9))\"/>\n"
        }
        text += "  </metadata>\n"
        for track in tracks {
            text += "  <trk>\n    <name>\(escaped(track.plugin))</name>\n    <src>\(track.kind)</src>\n"
            for segment in track.segments {
                text += "    <trkseg>\n"
                for point in segment { text += trackPoint(point, plugin: track.plugin) }
                text += "    </trkseg>\n"
            }
            text += "  </trk>\n"
        }
        return text + "</gpx>\n"
    }

    private static func trackPoint(_ point: TrackPoint, plugin: String) -> String {
        var text = "      <trkpt lat=\"\(decimal(point.latitude, 9))\" lon=\"\(decimal(longitude(point.longitude), 9))\">"
        if let altitude = point.altitude { text += "<ele>\(decimal(altitude, 3))</ele>" }
        text += "<time>\(Timestamp.iso8601(point.time))</time>"
        text += "<src>\(escaped(plugin))</src>"
        switch point.mode {
        case 2?: text += "<fix>2d</fix>"
        case 3?: text += "<fix>3d</fix>"
        default: break
        }
        let speed = point.speed.map { "<gpxtpx:speed>\(decimal(max($0, 0), 3))</gpxtpx:speed>" } ?? ""
        let course = point.course.map { "<gpxtpx:course>\(decimal(degrees($0), 2))</gpxtpx:course>" } ?? ""
        if !speed.isEmpty || !course.isEmpty {
            text += "<extensions><gpxtpx:TrackPointExtension>\(speed)\(course)</gpxtpx:TrackPointExtension></extensions>"
        }
        return text + "</trkpt>\n"
    }

    /// `value` rounded to `places` decimals, as C's `%.*f` writes it.
    private static func fixedDecimal(_ value: Double, _ places: Int) -> String {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 400) { buffer in
            _ = withVaList([Int32(places), value]) { vsnprintf(buffer.baseAddress, buffer.count, "%.*f", $0) }
            return String(cString: buffer.baseAddress!)
        }
    }

    /// `value` with at most `places` decimals and no exponent, trailing zeros removed.
    static func decimal(_ value: Double, _ places: Int) -> String {
        var text = fixedDecimal(value, places)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text == "-0" ? "0" : text
    }

    /// The schema's longitudes end before 180: the antimeridian is written as -180.
    private static func longitude(_ value: Double) -> Double {
        value >= 180 ? value - 360 : value
    }

    /// A course in [0, 360).
    private static func degrees(_ value: Double) -> Double {
        let wrapped = value.truncatingRemainder(dividingBy: 360)
        let positive = wrapped < 0 ? wrapped + 360 : wrapped
        return (positive * 100).rounded() / 100 >= 360 ? 0 : positive
    }

    static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            default: result.append(character)
            }
        }
        return result
    }
}
