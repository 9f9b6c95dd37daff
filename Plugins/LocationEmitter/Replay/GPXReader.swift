import FoundationEssentials
import SwitchyardBus

/// Reads the track points of a GPX 1.0 or 1.1 file with ``XMLTokenizer``.
///
/// Each `trkpt` with `lat`, `lon` and a `time` becomes a sample; `ele`, `speed`, `course`
/// (GPX 1.0) and `fix` are used when present. Points without a time or with an invalid
/// position are skipped and counted; routes (`rtept`) and waypoints (`wpt`) are not tracks
/// and are ignored. Our own tokenizer, not Foundation's `XMLParser`, so the bus does not load
/// FoundationXML and libxml2 (1.8 MB resident) to read a file it reads once.
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
        /// `line 3, column 24: <what is wrong>`.
        let description: String
    }

    /// Parses `data` as GPX.
    ///
    /// - Throws: ``MalformedDocument`` with the line and column when the XML is not well formed.
    static func read(_ data: Data) throws(MalformedDocument) -> Result {
        var collector = TrackPointCollector()
        do throws(XMLError) {
            var tokenizer = try XMLTokenizer(Array(data))
            while let event = try tokenizer.next() {
                switch event {
                case .start(let tag):
                    collector.start(tag) { tokenizer.position(of: tag.offset).line }
                case .end(let name, _):
                    collector.end(XMLStartTag.localName(name))
                case .text(let text):
                    collector.text(text)
                }
            }
        } catch {
            throw MalformedDocument(description: error.description)
        }
        return collector.result
    }
}

/// Collects `trkpt` elements and their children as the tokenizer hands them out.
private struct TrackPointCollector {
    private struct Point {
        var line: Int
        var latitude: Double?
        var longitude: Double?
        var fields: [Substring: String] = [:]
    }

    private(set) var result = GPXReader.Result()
    private var point: Point?
    private var text = ""

    /// A start tag; `line` gives its line, asked only for a track point.
    mutating func start(_ tag: XMLStartTag, line: () -> Int) {
        if tag.localName == "trkpt" {
            point = Point(line: line(), latitude: Self.number(tag.value(of: "lat")), longitude: Self.number(tag.value(of: "lon")))
        }
        text = ""
    }

    mutating func text(_ string: String) {
        if point != nil { text += string }
    }

    mutating func end(_ name: Substring) {
        if name == "trkpt", let finished = point {
            point = nil
            finish(finished)
        } else if point != nil {
            point?.fields[name] = text.trimmingWhitespace()
        }
    }

    /// A decimal attribute; GPX's schema collapses white space around it.
    private static func number(_ value: String?) -> Double? {
        value.flatMap { Double($0.trimmingSpaces()) }
    }

    private mutating func finish(_ point: Point) {
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

    private mutating func skip(_ problem: String) {
        result.skippedPoints += 1
        if result.firstProblem == nil { result.firstProblem = problem }
    }
}
