@testable import Switchyard
@testable import SwitchyardBus
@testable import SwitchyardDoors
import Testing

/// Repeated member names: kept last-wins where the bus reads other programs' JSON, refused where
/// a repeat is a mistake, and always compared by their bytes.
struct RepeatedMemberNamesTests {
    /// RFC 8259 allows a repeat; readers of other programs' JSON keep the last member.
    @Test func lastWins() throws {
        let value = try JSON(parsingInput: Array(#"{"tAcc":1.5,"x":[{"a":1,"a":2}],"tAcc":2.5}"#.utf8), repeatedNames: .lastWins)
        #expect(value == ["tAcc": 2.5, "x": [["a": 2]]])
    }

    /// The default refuses, as the configuration and the control socket need.
    @Test func refusedByDefault() {
        #expect(throws: JSONParseError.self) { try JSON(parsingInput: Array(#"{"port":1,"port":2}"#.utf8)) }
        #expect(throws: ControlError.self) {
            try ControlRequest(line: Array(#"{"op":"dispatch","action":{"type":"a/b","payload":{"x":1,"x":2}}}"#.utf8))
        }
        #expect(throws: ControlError.self) { try ControlRequest(line: Array(#"{"op":"state","op":"stats"}"#.utf8)) }
    }

    /// `"é"` and `"e\u0301"` are different names; an object cannot keep both, so it is refused
    /// with a message that says why, under either choice, rather than one silently replacing the other.
    @Test(arguments: [RepeatedMemberNames.refuse, .lastWins])
    func namesCompareByBytes(repeatedNames: RepeatedMemberNames) {
        let text = "{\"\u{E9}\":1,\"e\u{301}\":2}"
        #expect {
            try JSON(parsingInput: Array(text.utf8), repeatedNames: repeatedNames)
        } throws: { error in
            (error as? JSONParseError)?.reason.contains(#""\u{E9}" and "e\u{301}" are the same text in different Unicode forms"#) == true
        }
    }

    /// A configuration still refuses a repeated key, and one saved with a byte order mark is told so.
    @Test func configurationChecks() {
        #expect {
            try BusConfiguration.parse(#"{"plugins": [], "plugins": []}"#, file: "c.json", environment: [:], knownKinds: [])
        } throws: { error in
            (error as? ConfigurationError)?.description.contains(#"duplicate key "plugins""#) == true
        }
        #expect {
            try BusConfiguration.parse("\u{FEFF}{\"plugins\": []}", file: "c.json", environment: [:], knownKinds: [])
        } throws: { error in
            (error as? ConfigurationError)?.description.contains("c.json: the file starts with a UTF-8 byte order mark (BOM") == true
        }
    }
}
