import SwitchyardBus
import Testing

@testable import ExecPlugin

/// Decoding the lines a child writes to stdout.
struct ChildMessageTests {
    private func decode(_ line: String) throws(ProtocolViolation) -> ChildMessage? {
        try ChildMessage.decode(Array(line.utf8))
    }

    /// Valid lines: actions with optional payload and cause, an echoed whole action, the handshake, blanks.
    @Test(arguments: [
        (#"{"type":"geo/zone"}"#, ChildMessage.action(type: "geo/zone", payload: .null, cause: nil)),
        (#"{"type":"geo/zone","payload":{"zone":"home"},"cause":42}"#, .action(type: "geo/zone", payload: ["zone": "home"], cause: 42)),
        (#"{"type":"geo/zone","cause":null}"#, .action(type: "geo/zone", payload: .null, cause: nil)),
        (#"{"type":"a/b","payload":1,"id":9,"time":"whenever","source":"x","cause":3}"#, .action(type: "a/b", payload: 1, cause: 3)),
        (#"  {"ready": true}  "#, .ready),
    ])
    func decodesValidLines(line: String, expected: ChildMessage) throws {
        #expect(try decode(line) == expected)
    }

    /// Lines of whitespace only are ignored.
    @Test(arguments: ["   ", "\t", " \r"])
    func ignoresBlankLines(line: String) throws {
        #expect(try decode(line) == nil)
    }

    /// Each kind of bad line is a violation saying what is wrong.
    @Test(arguments: [
        ("nope", "not JSON: "),
        ("[1, 2]", "expected a JSON object, got an array"),
        (#""text""#, "expected a JSON object, got a string"),
        ("{}", #"an action needs a "type" (or send {"ready": true} to report ready)"#),
        (#"{"ready": false}"#, #""ready" must be true, got false"#),
        (#"{"type": 5}"#, #""type" must be a lower-case "domain/event" string, got 5"#),
        (#"{"type": "Geo/Zone"}"#, #""type" must be a lower-case "domain/event" string, got "Geo/Zone""#),
        (#"{"type": "geo"}"#, #""type" must be a lower-case "domain/event" string, got "geo""#),
        (#"{"type": "a/b", "cause": -1}"#, #""cause" must be the id of an action (an integer >= 0) or null, got -1"#),
        (#"{"type": "a/b", "cause": 1.5}"#, #""cause" must be the id of an action (an integer >= 0) or null, got 1.5"#),
        (#"{"type": "a/b", "cause": "7"}"#, #""cause" must be the id of an action (an integer >= 0) or null, got "7""#),
    ])
    func rejectsBadLines(line: String, reason: String) {
        let violation = #expect(throws: ProtocolViolation.self) {
            try decode(line)
        }
        #expect(violation?.description.hasPrefix(reason) == true, "\(violation?.description ?? "no violation")")
    }
}
