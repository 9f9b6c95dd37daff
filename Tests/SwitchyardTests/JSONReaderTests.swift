import SwitchyardBus
import Testing

/// The byte cursor under the shape readers (journal lines, JetStream acknowledgements): each
/// step takes what it expects or answers `nil` without moving, malformed input included.
struct JSONReaderTests {
    /// Runs `body` on a reader over `text`'s bytes.
    private func reading<T>(_ text: String, _ body: (inout JSONReader) -> T) -> T {
        Array(text.utf8).withUnsafeBufferPointer { bytes in
            var reader = JSONReader(bytes)
            return body(&reader)
        }
    }

    /// One step on a reader over `text`: what it answered and where the reader stands after.
    private func step<T>(_ text: String, _ body: (inout JSONReader) -> T) -> (value: T, end: Int) {
        reading(text) { reader in (body(&reader), reader.index) }
    }

    /// Strings decode their escapes as the full parser does; malformed ones are refused.
    @Test(arguments: [
        (#""plain""#, "plain" as String?, 7),
        (#""""#, "", 2),
        (#""a\"b\\c\/d\n""#, "a\"b\\c/d\n", 14),
        (#""\u00e9\ud83d\ude00""#, "é😀", 20),
        (#""é""#, "é", 4),
        (#""unterminated"#, nil, 0),
        (#""bad \x escape""#, nil, 0),
        (#""lone \ud83d surrogate""#, nil, 0),
        ("\"tab\tinside\"", nil, 0),
        ("plain", nil, 0),
        ("", nil, 0),
    ])
    func strings(text: String, expected: String?, end: Int) {
        let result = step(text) { $0.string() }
        #expect(result.value == expected && result.end == end, "\(result)")
    }

    /// Invalid UTF-8 inside a string is refused, as the full parser refuses it.
    @Test(arguments: [[0x22, 0xFF, 0x22], [0x22, 0xC3, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22]] as [[UInt8]])
    func invalidUTF8(bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { buffer in
            var reader = JSONReader(buffer)
            #expect(reader.string() == nil)
            #expect(reader.index == 0)
        }
    }

    /// Plain strings are taken only without escapes or control characters.
    @Test(arguments: [
        (#""BENCH" rest"#, 1..<6 as Range<Int>?),
        (#""""#, 1..<1),
        (#""B\"x""#, nil),
        ("\"a\u{1}\"", nil),
        (#""open"#, nil),
        ("x", nil),
    ])
    func plainStrings(text: String, expected: Range<Int>?) {
        let result = step(text) { $0.plainString() }
        #expect(result.value == expected && result.end == (expected.map { $0.upperBound + 1 } ?? 0), "\(result)")
    }

    /// Unsigned integers stop at the first non-digit and at the digit limit.
    @Test(arguments: [
        ("0", 0 as UInt64?, 1),
        ("12,", 12, 2),
        ("18446744073709551615", 1_844_674_407_370_955_161, 19),
        ("9999999999999999999", 9_999_999_999_999_999_999, 19),
        ("-1", nil, 0),
        ("", nil, 0),
        ("x1", nil, 0),
    ])
    func unsignedIntegers(text: String, expected: UInt64?, end: Int) {
        let result = step(text) { $0.unsignedInteger() }
        #expect(result.value == expected && result.end == end, "\(result)")
    }

    /// Skipping a value matches brackets and skips strings with their escapes; a scalar runs
    /// to the next comma or closing bracket; an unfinished value is refused without moving.
    @Test(arguments: [
        (#"{"a":[1,{"b":"}"}],"c":null},next"#, 0..<28 as Range<Int>?),
        (#"[1,[2,[3]]]"#, 0..<11),
        (#""a,\"}]" , x"#, 0..<8),
        ("12.5e3,x", 0..<6),
        ("true}", 0..<4),
        ("null", 0..<4),
        (#"{"a":[1,2}"#, nil),
        (#"{"a":"unterminated}"#, nil),
        (#""ends in \"#, nil),
        (",", nil),
        ("}", nil),
        ("", nil),
    ])
    func skippedValues(text: String, expected: Range<Int>?) {
        let result = step(text) { $0.skipValue() }
        #expect(result.value == expected && result.end == (expected?.upperBound ?? 0), "\(result)")
    }

    /// `take` moves only past exactly the text; whitespace and spaces skip as documented.
    @Test func takingAndSkipping() {
        reading("{\"id\": \t1}") { reader in
            let wrongCase = reader.take(#"{"ID":"#)
            #expect(!wrongCase && reader.index == 0)
            let key = reader.take(#"{"id":"#)
            reader.skipSpaces()
            #expect(key && reader.next == UInt8(ascii: "\t"))
            reader.skipWhitespace()
            let id = reader.unsignedInteger()
            let close = reader.take("}")
            #expect(id == 1 && close && reader.atEnd && reader.next == nil)
            let past = reader.take("}")
            #expect(!past)
        }
    }

    /// Member names match only as written, with whitespace around the `:`; anything else
    /// leaves the reader where it was.
    @Test(arguments: [
        (#""op":1"#, true, 5),
        (#""op" :  1"#, true, 8),
        (#""opx":1"#, false, 0),
        (#""o\u0070":1"#, false, 0),
        (#""op"1"#, false, 0),
        ("op:1", false, 0),
        (#""op""#, false, 0),
    ])
    func memberNames(text: String, matches: Bool, end: Int) {
        let result = step(text) { $0.member("op") }
        #expect(result.value == matches && result.end == end, "\(result)")
    }

    /// Objects are entered and left member by member; a trailing comma or garbage after a
    /// member is refused without moving.
    @Test(arguments: [
        (#"{"a":1,"b":[true]}"#, [true, false] as [Bool?], 18),
        (#"{ "a" : 1 , "b" : [true] } "#, [true, false], 26),
        (#"{"a":1,}"#, [nil], 6),
        (#"{"a":1 x"#, [nil], 6),
        (#"{"a":1"#, [nil], 6),
    ])
    func membersOfAnObject(text: String, answers: [Bool?], end: Int) {
        reading(text) { reader in
            let entered = reader.enterObject()
            #expect(entered)
            var seen: [Bool?] = []
            for name: StaticString in ["a", "b"] {
                guard reader.member(name), reader.value() != nil else { break }
                let more = reader.nextMember()
                seen.append(more)
                if more != true { break }
            }
            #expect(seen == answers && reader.index == end, "\(seen) \(reader.index)")
        }
    }

    /// Values are the full parser's, nesting counted from the objects entered; a malformed or
    /// too deep value is refused without moving.
    @Test func valuesAndDepth() {
        reading(#"{"a":{"n":[1,2.5,null]}}"#) { reader in
            let entered = reader.enterObject() && reader.member("a")
            let value = reader.value()
            let more = reader.nextMember()
            #expect(entered && value == ["n": [1, 2.5, nil]])
            #expect(more == false && reader.atEnd)
        }
        reading(#"[1,}"#) { reader in
            let value = reader.value()
            #expect(value == nil && reader.index == 0)
        }
        let depth = JSONLimits.maximumDepth
        let nested = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        reading(nested) { reader in
            let value = reader.value()
            #expect(value != nil)
        }
        reading("{\"a\":" + nested + "}") { reader in
            let entered = reader.enterObject() && reader.member("a")
            let value = reader.value()
            #expect(entered && value == nil && reader.index == 5)
        }
        reading(String(repeating: "{\"a\":", count: depth + 1)) { reader in
            var entered = 0
            while reader.enterObject() {
                entered += 1
                _ = reader.member("a")
            }
            #expect(entered == depth)
        }
    }
}
