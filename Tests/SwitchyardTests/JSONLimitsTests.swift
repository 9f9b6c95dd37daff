import Switchyard
import Testing

/// The one limit at the bus's doors: 128 levels, 16 MiB; the readers keep room above it.
struct JSONLimitsTests {
    static func nested(_ depth: Int) -> String {
        String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    }

    /// A door takes 128 levels and refuses 129 with the limit in the reason; the reader takes 512.
    @Test(arguments: [(128, true), (129, false), (510, false)])
    func doorDepth(depth: Int, accepted: Bool) throws {
        let text = Self.nested(depth)
        #expect(((try? JSON(parsingInput: text)) != nil) == accepted)
        if !accepted {
            #expect(throws: JSONParseError.self) { try JSON(parsingInput: Array(text.utf8)) }
            do {
                _ = try JSON(parsingInput: text)
            } catch {
                #expect(error.reason.contains("nested deeper than 128"))
            }
        }
        #expect(((try? JSON(parsing: text)) != nil) == (depth <= JSONLimits.readerDepth))
    }

    /// A document over 16 MiB is refused before it is parsed.
    @Test func documentSize() throws {
        let big = [UInt8(ascii: "\"")] + [UInt8](repeating: UInt8(ascii: "a"), count: JSONLimits.maximumDocumentBytes) + [UInt8(ascii: "\"")]
        do {
            _ = try JSON(parsingInput: big)
            Issue.record("a document over the limit was accepted")
        } catch {
            #expect(error.reason.contains("more than the \(JSONLimits.maximumDocumentBytes) allowed"))
        }
        #expect(JSONLimits.maximumDepth * 2 < JSONLimits.readerDepth)
    }

    /// A control request nested past the limit gets `malformed-json`.
    @Test func controlRequestDepth() {
        let line = #"{"op":"dispatch","action":{"type":"a/b","payload":\#(Self.nested(130))}}"#
        #expect(throws: ControlError.self) { try ControlRequest(line: Array(line.utf8)) }
        do {
            _ = try ControlRequest(line: Array(line.utf8))
        } catch {
            #expect(error.code == "malformed-json")
        }
    }

    /// A configuration nested past the limit is a configuration error.
    @Test func configurationDepth() {
        let text = #"{"plugins": [], "bus": {"name": \#(Self.nested(200))}}"#
        #expect(throws: ConfigurationError.self) {
            try BusConfiguration.parse(text, file: "deep.json", environment: [:], knownKinds: [])
        }
    }
}
