import SwitchyardBus
import SwitchyardDoors
import Testing

/// Parsing at the bus's doors: the door depth and the size limit of ``JSONLimits``.
struct DoorParsingTests {
    static func nested(_ depth: Int) -> String {
        String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    }

    /// A door takes the door depth and refuses one level more, naming the limit.
    @Test(arguments: [(JSONLimits.maximumDepth, true), (JSONLimits.maximumDepth + 1, false), (JSONLimits.journalDepth, false)])
    func doorDepth(depth: Int, accepted: Bool) {
        let text = Self.nested(depth)
        do {
            _ = try JSON(parsingInput: text)
            #expect(accepted)
        } catch {
            #expect(!accepted)
            #expect(error.reason.contains("nested deeper than \(JSONLimits.maximumDepth)"))
        }
    }

    /// A document over the size limit is refused before it is parsed.
    @Test func documentSize() {
        let big = [UInt8(ascii: "\"")] + [UInt8](repeating: UInt8(ascii: "a"), count: JSONLimits.maximumBytes) + [UInt8(ascii: "\"")]
        do {
            _ = try JSON(parsingInput: big)
            Issue.record("a document over the limit was accepted")
        } catch {
            #expect(error.reason.contains("more than the \(JSONLimits.maximumBytes) allowed"))
        }
    }

    /// A control request nested past the limit gets `malformed-json`.
    @Test func controlRequestDepth() {
        let line = #"{"op":"dispatch","action":{"type":"a/b","payload":\#(Self.nested(JSONLimits.maximumDepth))}}"#
        do {
            _ = try ControlRequest(line: Array(line.utf8))
            Issue.record("a request nested past the limit was accepted")
        } catch {
            #expect(error.code == "malformed-json")
        }
    }

    /// A configuration nested past the limit is a configuration error.
    @Test func configurationDepth() {
        let text = #"{"plugins": [], "bus": {"name": \#(Self.nested(JSONLimits.maximumDepth))}}"#
        #expect(throws: ConfigurationError.self) {
            try BusConfiguration.parse(text, file: "deep.json", environment: [:], knownKinds: [])
        }
    }
}
