import Foundation
@testable import LocationEmitterPlugin
import Testing

/// The same two track points written as GPX writers write them — both versions, namespace
/// prefixes, CR LF, a byte-order mark, either quote, comments, CDATA, references — read alike.
struct GPXWellFormedTests {
    /// A document holding the two points of ``expected``, and the line of its second point.
    struct Case: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let bytes: [UInt8]
        let secondPointLine: Int

        init(_ name: String, _ text: String, secondPointLine: Int = 4, bom: Bool = false) {
            testDescription = name
            bytes = (bom ? [0xEF, 0xBB, 0xBF] : []) + Array(text.utf8)
            self.secondPointLine = secondPointLine
        }
    }

    /// Two points; the second's time is missing in every case, so its line is reported.
    private static let body = """
        <trkpt lat="-41.2846" lon="174.7779"><ele>3.0</ele><time>2026-03-14T21:00:00Z</time></trkpt>
        <trkpt lat="-41.2847" lon="174.7780"><ele>3.5</ele></trkpt>
        <trkpt lat="-41.2848" lon="174.7781"><ele>4.0</ele><time>2026-03-14T21:00:10Z</time></trkpt>
        """

    static let cases: [Case] = [
        Case("GPX 1.1", "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx version=\"1.1\" xmlns=\"http://www.topografix.com/GPX/1/1\"><trk><trkseg>\n\(body)\n</trkseg></trk></gpx>"),
        Case("GPX 1.0", "<?xml version='1.0'?>\n<gpx version=\"1.0\" xmlns=\"http://www.topografix.com/GPX/1/0\"><trk><trkseg>\n\(body)\n</trkseg></trk></gpx>"),
        Case("GPX 1.1 with a prefix", "<g:gpx xmlns:g=\"http://www.topografix.com/GPX/1/1\"\n xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xsi:schemaLocation=\"a b\"><g:trk><g:trkseg>\n"
             + body.replacingOccurrences(of: "<", with: "<g:").replacingOccurrences(of: "<g:/", with: "</g:") + "\n</g:trkseg></g:trk></g:gpx>",
             secondPointLine: 4),
        Case("GPX 1.0 with a prefix", "<gpx10:gpx xmlns:gpx10=\"http://www.topografix.com/GPX/1/0\" version=\"1.0\"><gpx10:trk><gpx10:trkseg>\n\n"
             + body.replacingOccurrences(of: "<", with: "<gpx10:").replacingOccurrences(of: "<gpx10:/", with: "</gpx10:") + "\n</gpx10:trkseg></gpx10:trk></gpx10:gpx>"),
        Case("CR LF", "<?xml version=\"1.0\"?>\r\n<gpx version=\"1.1\">\r\n<trk><trkseg>\r\n\(body.replacingOccurrences(of: "\n", with: "\r\n"))\r\n</trkseg></trk></gpx>\r\n",
             secondPointLine: 5),
        Case("byte-order mark", "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<gpx><trk><trkseg>\n\(body)\n</trkseg></trk></gpx>", bom: true),
        Case("single quotes and spaces around '='", "<gpx>\n<trk><trkseg>\n" + body.replacingOccurrences(of: "\"", with: "'").replacingOccurrences(of: "=", with: " = ")
             + "</trkseg></trk></gpx>"),
        Case("comments, processing instructions, CDATA and references",
             "<?xml version=\"1.0\" standalone=\"yes\"?><!-- made by hand -->\n<?xml-stylesheet href=\"a.xsl\"?><gpx creator=\"A &amp; B &#x263A;\">\n<trk><name>&lt;walk&gt;</name><trkseg><!-- - -->\n"
             + body.replacingOccurrences(of: "2026-03-14T21:00:10Z", with: "<![CDATA[2026-03-14T21:00:10Z]]>").replacingOccurrences(of: "174.7779", with: "&#49;74.7779")
             + "\n</trkseg></trk></gpx>\n<!-- trailing -->\n", secondPointLine: 5),
        Case("extensions and self-closing elements", "<gpx xmlns:ext=\"urn:x\"><trk><trkseg>\n\n"
             + body.replacingOccurrences(of: "</trkpt>", with: "<extensions><ext:hr>80</ext:hr><ext:flag/></extensions></trkpt>")
             + "<trkpt lat=\"1\" lon=\"2\"/></trkseg></trk></gpx>"),
    ]

    @Test(arguments: cases)
    func read(_ example: Case) throws {
        let result = try GPXReader.read(Data(example.bytes))
        let samples = result.samples.map(\.sample)
        #expect(samples.map(\.coordinate) == [Coordinate(latitude: -41.2846, longitude: 174.7779), Coordinate(latitude: -41.2848, longitude: 174.7781)])
        #expect(samples.map(\.timestamp) == ["2026-03-14T21:00:00.000Z", "2026-03-14T21:00:10.000Z"])
        #expect(samples.map(\.altitude) == [3.0, 4.0])
        #expect(result.firstProblem == "line \(example.secondPointLine): a track point without a valid time")
    }

    /// A file starting with a byte-order mark is read as GPX, not as NMEA.
    @Test func byteOrderMarkFile() throws {
        let text = "\u{FEFF}" + Fixtures.gpx([(-41.2846, 174.7779, "2026-03-14T21:00:00Z")])
        let track = try Fixtures.withTemporaryFile(text) { try ReplayTrack.load(path: $0) }
        #expect(track.points.map(\.sample.coordinate) == [Coordinate(latitude: -41.2846, longitude: 174.7779)])
    }

    /// The tokenizer's events for a small document: self-closing tags end at once, text keeps
    /// its white space (line ends made LF) and references are resolved.
    @Test func events() throws {
        var tokenizer = try XMLTokenizer(Array("<a x='1 &quot;2&quot;'>\r\n t<b/>&#65;</a>".utf8))
        var events: [XMLTokenizer.Event] = []
        while let event = try tokenizer.next() { events.append(event) }
        #expect(events == [
            .start(XMLStartTag(name: "a", attributes: [.init(name: "x", value: "1 \"2\"")], offset: 0)),
            .text("\n t"),
            .start(XMLStartTag(name: "b", attributes: [], offset: 27)),
            .end(name: "b", offset: 27),
            .text("A"),
            .end(name: "a", offset: 36),
        ])
    }
}
