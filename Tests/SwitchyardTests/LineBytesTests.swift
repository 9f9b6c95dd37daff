import Foundation
import Testing
@testable import Switchyard
@testable import SwitchyardBus
@testable import SwitchyardDoors

/// The hand-written per-action lines are byte for byte what the general writers give, so
/// journals, watcher streams and dispatch replies read as they always did.
struct LineBytesTests {
    /// Decimals spell as `String` does, at every width and at the ends of the range.
    @Test(arguments: [0, 1, 9, 10, 99, 100, 12_345, 999_999_999, UInt64(Int64.max), UInt64.max] as [UInt64])
    func decimals(value: UInt64) {
        var bytes: [UInt8] = [UInt8(ascii: "x")]
        LineBytes.appendDecimal(value, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == "x" + String(value))
        var clamped: [UInt8] = []
        LineBytes.appendClampedDecimal(value, to: &clamped)
        #expect(String(decoding: clamped, as: UTF8.self) == String(Int64(clamping: value)))
    }

    /// Timestamps appended to bytes equal the formatted string, also for years past 9999.
    @Test(arguments: [0.0, 1_795_339_800.125, -0.5, 951_782_400.5009, 253_402_300_800.0])
    func timestamps(seconds: Double) {
        let date = Date(timeIntervalSince1970: seconds)
        var bytes: [UInt8] = []
        Timestamp.appendISO8601(date, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == Timestamp.iso8601(date))
    }

    /// An action's object is what serializing its JSON gives, with and without a cause, with
    /// an id past `Int64.max` clamped as the JSON form clamps it, and with escapes.
    @Test(arguments: [
        BusAction(type: "bench/ping", payload: 1, id: 7, time: Date(timeIntervalSince1970: 1_795_339_800.125), source: "control", cause: nil),
        BusAction(type: "load/n", payload: ["n": 1, "s": "a\"b\n"], id: 123_456_789, time: Date(timeIntervalSince1970: 0), source: "x\\y", cause: 42),
        BusAction(type: "a/b", payload: .null, id: UInt64.max, time: Date(timeIntervalSince1970: 4_102_444_799.999), source: "", cause: UInt64.max),
    ])
    func actionObjects(action: BusAction) {
        var bytes: [UInt8] = []
        JournalLine.appendObject(action, to: &bytes)
        #expect(bytes == Array(action.json.serialized().utf8))
    }

    /// The dispatch reply is the `{"id":N,"ok":true}` line the general writer gives.
    @Test(arguments: [1, 10, 987_654_321] as [UInt64])
    func dispatchReplies(id: UInt64) {
        #expect(ControlReply.dispatched(id) == ControlReply.line(["id": .integer(Int64(id)), "ok": true]))
    }

    /// Type names are checked as segments of lower-case letters, digits, `-`, `_` and `.`,
    /// at least two, none empty, each starting with a letter or digit.
    @Test(arguments: [
        ("bench/ping", true), ("a/b/c", true), ("gps/fix-2_x.y", true), ("0/9", true),
        ("", false), ("a", false), ("/a", false), ("a/", false), ("a//b", false), ("A/b", false),
        ("a/-b", false), ("a/.b", false), ("a/b c", false), ("a/é", false), ("-a/b", false),
    ])
    func typeNames(type: String, valid: Bool) {
        #expect(ActionType.isValid(type) == valid)
    }
}
