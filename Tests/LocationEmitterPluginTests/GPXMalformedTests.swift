import Foundation
@testable import LocationEmitterPlugin
import Testing

/// Documents that are not well-formed XML: each is refused with the line and column of the
/// offending character and what is wrong, never read in part.
struct GPXMalformedTests {
    /// A document and the error it must give.
    struct Case: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let bytes: [UInt8]
        let error: String

        init(_ name: String, _ text: String, _ error: String) {
            self.init(name, Array(text.utf8), error)
        }

        init(_ name: String, _ bytes: [UInt8], _ error: String) {
            testDescription = name
            self.bytes = bytes
            self.error = error
        }
    }

    static let cases: [Case] = [
        Case("unclosed start tag", "<gpx><trk>\n<trkpt lat=\"1\" lon=\"2\"\n<time>", "line 3, column 1: '>' expected: the start tag <trkpt> is not closed"),
        Case("start tag cut off", "<gpx><trk", "line 1, column 10: '>' expected: the start tag <trk> is not closed"),
        Case("mismatched end tag", "<gpx><trk>\n  <trkseg></trk>", "line 2, column 11: an end tag does not match its start tag: </trk> closes <trkseg> of line 2, column 3"),
        Case("end tag after the root", "<gpx></gpx></gpx>", "line 1, column 12: extra content after the root element"),
        Case("end tag not finished", "<gpx></gpx x>", "line 1, column 12: '>' expected at the end of </gpx>"),
        Case("undefined entity", "<gpx><name>a &nbsp; b</name></gpx>", "line 1, column 14: undefined entity &nbsp;"),
        Case("bare ampersand", "<gpx><name>AT&T</name></gpx>", "line 1, column 14: '&' must begin an entity or character reference (write &amp; for '&')"),
        Case("character reference to NUL", "<gpx><name>&#0;</name></gpx>", "line 1, column 12: &#0; refers to a character XML does not allow"),
        Case("character reference to a surrogate", "<gpx name='&#xD800;'/>", "line 1, column 12: &#xD800; refers to a character XML does not allow"),
        Case("character reference without digits", "<gpx><name>&#x;</name></gpx>", "line 1, column 12: a character reference must be &#DIGITS; or &#xHEX;"),
        Case("truncated inside an element", "<?xml version=\"1.0\"?>\n<gpx>\n <trk><trkseg><trkpt lat=\"1\" lon=\"2\"><time>2024-01-",
             "line 3, column 52: an element is not closed: <time> of line 3, column 38 is open at the end of the file"),
        Case("truncated inside an attribute", "<gpx creator=\"abc", "line 1, column 14: the value of attribute creator is not closed"),
        Case("truncated inside a comment", "<gpx><!-- a", "line 1, column 6: a comment is not closed"),
        Case("truncated inside CDATA", "<gpx><![CDATA[a", "line 1, column 6: a CDATA section is not closed"),
        Case("empty", "", "line 1, column 1: the document is empty: it has no root element"),
        Case("only a declaration", "<?xml version=\"1.0\"?>\n", "line 2, column 1: the document is empty: it has no root element"),
        Case("garbage bytes", [0x00, 0x9F, 0x3C, 0x67], "line 1, column 1: a character XML does not allow (U+0000)"),
        Case("garbage text", "GPX? \u{7F}<gpx/>", "line 1, column 1: text before the root element"),
        Case("Latin-1 byte", Array("<gpx>\n<name>caf".utf8) + [0xE9] + Array("</name></gpx>".utf8), "line 2, column 10: the document is not UTF-8 (byte 0xE9)"),
        Case("overlong UTF-8", Array("<gpx>".utf8) + [0xC0, 0xAF] + Array("</gpx>".utf8), "line 1, column 6: the document is not UTF-8 (byte 0xC0)"),
        Case("UTF-8 surrogate", Array("<gpx>".utf8) + [0xED, 0xA0, 0x80] + Array("</gpx>".utf8), "line 1, column 6: the document is not UTF-8 (byte 0xED)"),
        Case("UTF-16", [0xFF, 0xFE, 0x3C, 0x00], "line 1, column 1: the document is UTF-16; only UTF-8 is read"),
        Case("declared Latin-1 with non-ASCII", "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><gpx>é</gpx>",
             "line 1, column 1: the document declares encoding ISO-8859-1 and holds non-ASCII characters; only UTF-8 is read"),
        Case("huge attribute", "<gpx creator=\"" + String(repeating: "a", count: 2 << 20) + "\"/>", "line 1, column 14: the value of attribute creator is longer than 1 MiB"),
        Case("huge text", "<gpx><desc>" + String(repeating: "é", count: 1 << 20) + "</desc></gpx>", "line 1, column 12: a text longer than 1 MiB"),
        Case("too deep", String(repeating: "<a>", count: 300), "line 1, column 769: elements nest deeper than 256"),
        Case("duplicate attribute", "<gpx><trkpt lat=\"1\" lat=\"2\"/></gpx>", "line 1, column 21: attribute lat appears twice"),
        Case("unquoted attribute", "<gpx version=1.1/>", "line 1, column 14: a quoted value expected for attribute version"),
        Case("attribute without value", "<gpx creator/>", "line 1, column 13: '=' expected after attribute creator"),
        Case("attributes without space", "<gpx a=\"1\"b=\"2\"/>", "line 1, column 11: white space expected before an attribute"),
        Case("'<' in an attribute", "<gpx a=\"<\"/>", "line 1, column 9: '<' is not allowed in an attribute value (write &lt;)"),
        Case("second root", "<gpx/>\n<gpx/>", "line 2, column 1: extra content after the root element"),
        Case("text after the root", "<gpx/>\r\nmore", "line 2, column 1: extra content after the root element"),
        Case("DOCTYPE", "<!DOCTYPE gpx [<!ENTITY a \"b\">]><gpx/>", "line 1, column 1: a DOCTYPE is not accepted (GPX needs none, and its entities are not expanded)"),
        Case("declaration not at the start", "\n<?xml version=\"1.0\"?><gpx/>", "line 2, column 1: the XML declaration is allowed only at the very start of the document"),
        Case("declaration without version", "<?xml encoding=\"UTF-8\"?><gpx/>", "line 1, column 1: the XML declaration has no version"),
        Case("double hyphen in a comment", "<gpx><!-- a -- b --></gpx>", "line 1, column 13: '--' is not allowed inside a comment"),
        Case("']]>' in text", "<gpx>a ]]> b</gpx>", "line 1, column 8: ']]>' is not allowed in text"),
        Case("CDATA outside the root", "<![CDATA[x]]><gpx/>", "line 1, column 1: a CDATA section outside the root element"),
        Case("'<!' of nothing", "<gpx><!x></gpx>", "line 1, column 6: '<!' begins neither a comment nor a CDATA section"),
        Case("no element name", "<gpx>< trk/></gpx>", "line 1, column 7: an element name expected after '<'"),
        Case("columns count characters", "<gpx><name>é ü</nam></gpx>", "line 1, column 15: an end tag does not match its start tag: </nam> closes <name> of line 1, column 6"),
    ]

    @Test(arguments: cases)
    func refused(_ example: Case) {
        #expect(throws: GPXReader.MalformedDocument(description: example.error)) {
            try GPXReader.read(Data(example.bytes))
        }
    }

    /// The error reaches the bus log with the file's path, as a replay source's load error.
    @Test func loadNamesTheFile() throws {
        _ = try Fixtures.withTemporaryFile("<?xml version=\"1.0\"?>\n<gpx><trk>\n<trkpt lat=\"1\" lon=\"2\"></trk></gpx>") { path in
            #expect(throws: ReplayTrack.LoadError(description:
                "\(path) is not valid GPX: line 3, column 24: an end tag does not match its start tag: </trk> closes <trkpt> of line 3, column 1")) {
                try ReplayTrack.load(path: path)
            }
        }
    }
}
