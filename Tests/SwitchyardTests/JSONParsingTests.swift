import Foundation
import SwitchyardBus
import Testing

struct JSONParsingTests {
    /// Well-formed documents parse to the expected values.
    @Test(arguments: [
        ("null", JSON.null),
        ("true", true),
        (" \t\r\nfalse \n", false),
        ("0", 0),
        ("-0", 0),
        ("42", 42),
        ("-17", -17),
        ("9223372036854775807", .integer(.max)),
        ("-9223372036854775808", .integer(.min)),
        ("9223372036854775808", .number(9_223_372_036_854_775_808)),
        ("-9223372036854775809", .number(-9.223372036854775808e18)),
        ("123456789012345678901234567890", .number(1.2345678901234568e29)),
        ("1.5", 1.5),
        ("-0.25", -0.25),
        ("1e3", .number(1000)),
        ("1E+2", .number(100)),
        ("2.5e-3", 0.0025),
        ("51.477928", 51.477928),
        ("-0.001281", -0.001281),
        ("1.7976931348623157e308", .number(.greatestFiniteMagnitude)),
        ("5e-324", .number(.leastNonzeroMagnitude)),
        ("1e-400", .number(0)),
        ("0.1000000000000000055511151231257827", 0.1),
        ("\"\"", ""),
        ("\"plain\"", "plain"),
        ("\"Café ☕ 🚀\"", "Café ☕ 🚀"),
        (#""a\"b\\c\/d\b\f\n\r\t""#, "a\"b\\c/d\u{08}\u{0C}\n\r\t"),
        (#""\u0041\u00e9\u4E2D""#, "Aé中"),
        (#""\ud83d\ude80 rocket""#, "🚀 rocket"),
        (#""\u0000""#, "\u{0}"),
        ("[]", []),
        ("[ 1 , \"two\" , [ null ] ]", [1, "two", [nil]]),
        ("{}", [:]),
        (#"{"a": {"b": [true, false]}, "c": 1.0}"#, ["a": ["b": [true, false]], "c": .number(1)]),
        (#"{"class":"TPV","mode":3,"lat":51.5,"lon":-0.12}"#, ["class": "TPV", "mode": 3, "lat": 51.5, "lon": -0.12]),
    ] as [(String, JSON)])
    func parsesValidInput(text: String, expected: JSON) throws {
        let parsed = try JSON(parsing: text)
        #expect(parsed == expected)
        if case .number(let number) = expected, number == 0 {
            #expect(parsed.doubleValue?.sign == number.sign)
        }
    }

    /// Malformed documents are rejected with the line, column and reason of the first problem.
    @Test(arguments: [
        ("", 1, 1, "expected a value, found the end of the input"),
        ("   ", 1, 4, "expected a value, found the end of the input"),
        ("{\"a\": 1,}", 1, 9, "trailing commas are not allowed"),
        ("[1, 2,]", 1, 7, "trailing commas are not allowed"),
        ("[1 2]", 1, 4, "expected ',' or ']' after an array element, found '2'"),
        ("{\n  \"a\": 1\n  \"b\": 2\n}", 3, 3, "expected ',' or '}' after an object member, found '\"'"),
        ("{\n  \"name\": \"gps\",\n  \"port\": 29x7\n}", 3, 13, "expected ',' or '}' after an object member, found 'x'"),
        ("{\"a\" 1}", 1, 6, "expected ':' after an object key, found '1'"),
        ("{a: 1}", 1, 2, "expected a string key for an object member, found 'a'"),
        ("{'a': 1}", 1, 2, "expected a string key for an object member, found '''"),
        ("\"abc", 1, 1, "unterminated string"),
        ("{\n \"key\": \"open\n}", 2, 14, "unterminated string"),
        ("[1, 2", 1, 6, "expected ',' or ']' after an array element, found the end of the input"),
        ("{\"a\":", 1, 6, "expected a value, found the end of the input"),
        ("{\"a\": [1, {\"b\": tru", 1, 20, "expected 'true', found the end of the input"),
        ("nul", 1, 4, "expected 'null', found the end of the input"),
        ("NaN", 1, 1, "expected a value, found 'N'"),
        ("Infinity", 1, 1, "expected a value, found 'I'"),
        ("-", 1, 2, "expected a digit after '-', found the end of the input"),
        ("01", 1, 1, "leading zero"),
        ("1.", 1, 3, "expected a digit after the decimal point"),
        (".5", 1, 1, "expected a value, found '.'"),
        ("1e", 1, 3, "expected a digit in the exponent"),
        ("+1", 1, 1, "expected a value, found '+'"),
        ("1e400", 1, 1, "too large"),
        ("1 2", 1, 3, "expected the end of the input after the value, found '2'"),
        ("{} x", 1, 4, "expected the end of the input after the value, found 'x'"),
        ("// comment\n1", 1, 1, "expected a value, found '/'"),
        ("\"tab\there\"", 1, 5, "unescaped control character U+0009"),
        (#""\x""#, 1, 2, "invalid escape sequence in a string, found '\\x'"),
        (#""\u12G4""#, 1, 6, "expected 4 hexadecimal digits after \\u, found 'G'"),
        (#""\ud83d""#, 1, 2, "unpaired surrogate \\uD83D"),
        (#""\ud83d\u0041""#, 1, 8, "expected a low surrogate"),
        (#""\ude80""#, 1, 2, "unpaired surrogate \\uDE80"),
        ("{\"port\": 1, \"port\": 2}", 1, 13, "duplicate key \"port\""),
        ("[é]", 1, 2, "expected a value, found 'é'"),
        ("\u{FEFF}{}", 1, 1, "expected a value, found '\u{FEFF}'"),
    ] as [(String, Int, Int, String)])
    func rejectsInvalidInput(text: String, line: Int, column: Int, reason: String) {
        #expect {
            try JSON(parsing: text)
        } throws: { error in
            guard let error = error as? JSONParseError else { return false }
            return error.line == line && error.column == column && error.reason.contains(reason)
        }
    }

    /// The description names line and column before the reason.
    @Test func errorDescription() {
        let error = #expect(throws: JSONParseError.self) {
            try JSON(parsing: "{\n  \"a\": 1\n  \"b\": 2\n}")
        }
        #expect(error?.description == "line 3, column 3: expected ',' or '}' after an object member, found '\"'")
        #expect(error?.offset == 13)
    }

    /// Byte sequences that are not UTF-8 are rejected where they start, also inside strings.
    @Test(arguments: [
        ([0x22, 0xFF, 0x22], 2, "invalid UTF-8 byte 0xFF"),
        ([0x22, 0xC3, 0x22], 2, "invalid UTF-8 sequence"),
        ([0x22, 0xC0, 0xAF, 0x22], 2, "invalid UTF-8 byte 0xC0"),
        ([0x22, 0xED, 0xA0, 0x80, 0x22], 2, "invalid UTF-8 sequence"),
        ([0x22, 0x5C, 0x6E, 0xF4, 0x90, 0x80, 0x80, 0x22], 4, "invalid UTF-8 sequence"),
        ([0x22, 0xE2, 0x82], 2, "invalid UTF-8 sequence"),
        ([0x5B, 0xFF, 0x5D], 2, "found byte 0xFF"),
    ] as [([UInt8], Int, String)])
    func rejectsInvalidUTF8(bytes: [UInt8], column: Int, reason: String) {
        #expect {
            try JSON(parsing: bytes)
        } throws: { error in
            guard let error = error as? JSONParseError else { return false }
            return error.column == column && error.reason.contains(reason)
        }
    }

    /// Bytes from any collection parse the same as text: arrays, Data, non-contiguous views.
    @Test func parsesByteCollections() throws {
        let text = #"{"lat": 51.5, "tags": ["a", "b"]}"#
        let expected = try JSON(parsing: text)
        #expect(try JSON(parsing: Array(text.utf8)) == expected)
        #expect(try JSON(parsing: Data(text.utf8)) == expected)
        #expect(try JSON(parsing: text.utf8) == expected)
        #expect(try JSON(parsing: Array(text.utf8).reversed().reversed()) == expected)
        #expect(try JSON(parsing: Array("xx\(text)xx".utf8).dropFirst(2).dropLast(2)) == expected)
    }

    /// Nesting up to the limit parses; one level deeper is an error, not a stack overflow.
    @Test func nestingLimit() throws {
        let limit = 512
        let deepest = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        #expect(try JSON(parsing: deepest).arrayValue?.count == 1)
        let tooDeep = String(repeating: "[", count: limit + 1) + String(repeating: "]", count: limit + 1)
        let error = #expect(throws: JSONParseError.self) { try JSON(parsing: tooDeep) }
        #expect(error?.column == limit + 1)
        #expect(error?.reason.contains("nested deeper than 512") == true)
        let hostile = String(repeating: "{\"a\":", count: 100_000)
        #expect(throws: JSONParseError.self) { try JSON(parsing: hostile) }
    }

    /// Columns count characters, not bytes, so a position after non-ASCII text is where an editor shows it.
    @Test func columnsCountScalars() {
        let error = #expect(throws: JSONParseError.self) { try JSON(parsing: "[\"héllo wörld\" x]") }
        #expect(error?.column == 16)
        #expect(error?.offset == 17)
    }
}
