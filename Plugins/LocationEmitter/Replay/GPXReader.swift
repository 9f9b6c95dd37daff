import Foundation
import Switchyard

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads the track points of a GPX 1.0 or 1.1 file with Foundation's `XMLParser`.
///
/// Each `trkpt` with `lat`, `lon` and a `time` becomes a sample; `ele`, `speed`, `course`
/// (GPX 1.0) and `fix` are used when present. Points without a time or with an invalid
/// position are skipped and counted; routes (`rtept`) and waypoints (`wpt`) are not tracks
/// and are ignored.
struct GPXReader {
    /// What a file contained.
    struct Result: Sendable, Hashable {
        /// One sample per usable track point, in file order.
        var samples: [RecordedSample] = []
        /// Track points skipped.
        var skippedPoints = 0
        /// The first skipped point's line and reason, for the log.
        var firstProblem: String?
    }

    /// The document is not well-formed XML.
    struct MalformedDocument: Error, Sendable, Hashable, CustomStringConvertible {
        /// `line 3, column 14: <the parser's reason>`.
        let description: String
    }

    /// Parses `data` as GPX.
    ///
    /// - Throws: ``MalformedDocument`` with the line and column when the XML is not well formed.
    static func read(_ data: Data) throws(MalformedDocument) -> Result {
        let parser = XMLParser(data: data)
        let collector = TrackPointCollector(parser: parser)
        parser.delegate = collector
        // FoundationXML on Linux can return true from parse() after an error, so the error the
        // delegate saw decides.
        let finished = parser.parse()
        if let problem = collector.firstError {
            throw MalformedDocument(description: problem)
        }
        guard finished else {
            throw MalformedDocument(description: "line \(parser.lineNumber), column \(parser.columnNumber): unreadable XML")
        }
        return collector.result
    }
}

/// The parser delegate: collects `trkpt` elements and their children.
private final class TrackPointCollector: NSObject, XMLParserDelegate {
    private struct Point {
        var line: Int
        var latitude: Double?
        var longitude: Double?
        var fields: [String: String] = [:]
    }

    private unowned let parser: XMLParser
    private(set) var result = GPXReader.Result()
    private(set) var firstError: String?
    private var point: Point?
    private var text = ""

    init(parser: XMLParser) {
        self.parser = parser
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        if localName(elementName) == "trkpt" {
            point = Point(
                line: parser.lineNumber, latitude: attributes["lat"].flatMap { Double($0) },
                longitude: attributes["lon"].flatMap { Double($0) })
        }
        text = ""
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if point != nil { text += string }
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        let name = localName(elementName)
        if name == "trkpt", let finished = point {
            point = nil
            finish(finished)
        } else if point != nil {
            point?.fields[name] = text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        guard firstError == nil else { return }
        firstError = "line \(parser.lineNumber), column \(parser.columnNumber): \(Self.describe(parseError))"
        parser.abortParsing()
    }

    /// libxml2's codes for the usual mistakes; Foundation on Linux gives no message.
    private static func describe(_ error: any Error) -> String {
        let code = (error as NSError).code
        switch code {
        case 4: return "the document is empty"
        case 5: return "extra content after the root element"
        case 73: return "'>' expected"
        case 76: return "an end tag does not match its start tag"
        case 77: return "an element is not closed"
        default: return "XML error \(code)"
        }
    }

    private func finish(_ point: Point) {
        guard let latitude = point.latitude, let longitude = point.longitude, abs(latitude) <= 90, abs(longitude) <= 180
        else { return skip("line \(point.line): a track point without a valid lat and lon") }
        guard let timeText = point.fields["time"], let time = Timestamp.parseISO8601(timeText) else {
            return skip("line \(point.line): a track point without a valid time")
        }
        let altitude = point.fields["ele"].flatMap { Double($0) }
        let mode: Int
        switch point.fields["fix"] {
        case "none": mode = 1
        case "2d": mode = 2
        case "3d", "dgps", "pps": mode = 3
        default: mode = altitude == nil ? 2 : 3
        }
        let sample = PositionSample(
            mode: mode, coordinate: mode >= 2 ? Coordinate(latitude: latitude, longitude: longitude) : nil,
            altitude: altitude, speed: point.fields["speed"].flatMap { Double($0) },
            course: point.fields["course"].flatMap { Double($0) },
            timestamp: Timestamp.iso8601(time))
        result.samples.append(RecordedSample(sample: sample, time: .absolute(time.timeIntervalSince1970)))
    }

    private func skip(_ problem: String) {
        result.skippedPoints += 1
        if result.firstProblem == nil { result.firstProblem = problem }
    }

    /// The element name without a namespace prefix (`gpx:trkpt` → `trkpt`).
    private func localName(_ name: String) -> String {
        name.split(separator: ":").last.map(String.init) ?? name
    }
}
