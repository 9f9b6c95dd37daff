import Foundation
import SwitchyardBus
import SwitchyardTestSupport
import Testing

struct JSONSerializationTests {
    /// Each value has one compact spelling: sorted keys, integers bare, shortest doubles.
    @Test(arguments: [
        (JSON.null, "null"),
        (true, "true"),
        (-42, "-42"),
        (.integer(.min), "-9223372036854775808"),
        (1.5, "1.5"),
        (.number(3), "3.0"),
        (0.1, "0.1"),
        (.number(-0.0), "-0.0"),
        (.number(1e-5), "1e-05"),
        (.number(1e21), "1e+21"),
        (.number(.infinity), "null"),
        (.number(.nan), "null"),
        ("a\"b\\c\n\r\t\u{08}\u{0C}\u{01}\u{1F}/é🚀", #""a\"b\\c\n\r\t\b\f\u0001\u001f/é🚀""#),
        ([1, "x", nil, [:], []], #"[1,"x",null,{},[]]"#),
        (["b": 1, "a": ["d": true, "c": false], "B": nil], #"{"B":null,"a":{"c":false,"d":true},"b":1}"#),
    ] as [(JSON, String)])
    func compactForm(value: JSON, expected: String) {
        #expect(value.serialized() == expected)
        #expect(value.description == expected)
    }

    /// Pretty output indents by two spaces with sorted keys and keeps empty containers on one line.
    @Test func prettyForm() {
        let value: JSON = ["plugins": [["name": "gps", "port": 2947]], "bus": [:], "tags": []]
        #expect(value.prettyPrinted() == """
            {
              "bus": {},
              "plugins": [
                {
                  "name": "gps",
                  "port": 2947
                }
              ],
              "tags": []
            }
            """)
        #expect(JSON.integer(1).prettyPrinted() == "1")
    }

    /// Serializing then parsing gives back the same value, compact or pretty.
    @Test(arguments: [
        JSON.null,
        ["nested": ["deep": [[1, 2.25, -3e-10, .number(.greatestFiniteMagnitude), .number(.leastNonzeroMagnitude)]]]],
        ["control": "\u{0}\u{7F}\u{2028}\"\\", "unicode": "日本語 🇬🇧"],
        [.integer(.max), .integer(.min), .number(0.1 + 0.2), .number(123_456_789.123_456_789)],
    ] as [JSON])
    func roundTrip(value: JSON) throws {
        #expect(try JSON(parsing: value.serialized()) == value)
        #expect(try JSON(parsing: value.prettyPrinted()) == value)
    }

    /// Random doubles survive a round trip bit for bit, so measurements are never blurred.
    @Test func doublesRoundTripExactly() throws {
        var generator = SeededGenerator(seed: 0x5EED)
        for _ in 0..<5_000 {
            let bits = generator.next()
            let number = Double(bitPattern: bits)
            guard number.isFinite else { continue }
            let parsed = try JSON(parsing: JSON.number(number).serialized())
            #expect(parsed.doubleValue?.bitPattern == number.bitPattern || (number == 0 && parsed.doubleValue == 0))
        }
    }

    /// `serialize(into:)` appends to what the buffer already holds.
    @Test func serializeAppends() {
        var buffer = Array("prefix ".utf8)
        (["a": 1] as JSON).serialize(into: &buffer)
        JSON.string("x").serialize(into: &buffer)
        #expect(String(decoding: buffer, as: UTF8.self) == #"prefix {"a":1}"x""#)
    }
}
