import Foundation
import Testing
@testable import SwitchyardBus

/// A journal line in the writer's shape is read field by field; the result must be exactly what
/// the whole parse gives, and a line the whole parse refuses must never be taken that way.
struct JournalLineShapeTests {
    private static let time = #""2026-11-28T13:00:00.125Z""#

    /// A line with these members, in the writer's order and spacing.
    private static func line(cause: String = "null", id: String = "42", payload: String = #"{"lat":51.5}"#,
                             source: String = #""gps""#, time: String = time, type: String = #""gps/fix""#) -> String {
        #"{"cause":\#(cause),"id":\#(id),"payload":\#(payload),"source":\#(source),"time":\#(time),"type":\#(type)}"#
    }

    private static func nested(_ depth: Int) -> String {
        String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth)
    }

    /// Lines both readings take: the shape reading gives the whole parse's action.
    @Test(arguments: [
        line(),
        line(cause: "7"),
        line(cause: "0"),
        line(id: "9223372036854775807"),
        line(payload: "null"),
        line(payload: #""text with \"quotes\", \\ and \u00e9""#),
        line(payload: #"[1,2.5,-3e2,true,false,null,{"a":{"b":[]}}]"#),
        line(payload: #"{"z":1,"a":2}"#),
        line(payload: nested(JSONLimits.journalDepth - 1)),
        line(source: #""plugin \"a\" \u2603""#),
        line(time: #""2026-11-28T13:00:00.1254Z""#),
        line(type: #""door/open""#),
    ])
    func shapeReadingEqualsTheWholeParse(line: String) throws {
        let bytes = Array(line.utf8)
        let whole = try bytes.withUnsafeBufferPointer { JournalLine.decodeWhole($0) }.get()
        let shaped = bytes.withUnsafeBufferPointer { JournalLine.decodeWritersShape($0) }
        #expect(shaped == whole)
        #expect(try bytes.withUnsafeBufferPointer { JournalLine.decode($0) }.get() == whole)
    }

    /// Lines the whole parse refuses: the shape reading refuses them too (so the reason given
    /// is the whole parse's), whatever its fast path would have made of them.
    @Test(arguments: [
        line(id: "0"),
        line(id: "007"),
        line(cause: "01"),
        line(id: "9223372036854775808"),
        line(cause: "9223372036854775808"),
        line(id: "-1"),
        line(cause: "-2"),
        line(payload: #"{"a":1,"a":2}"#),
        line(payload: nested(JSONLimits.journalDepth)),
        line(payload: #"{"a":}"#),
        line(source: "1"),
        line(time: #""yesterday""#),
        line(type: #""Not A Type""#),
        line(type: #""gps/fix"} "#),
    ])
    func shapeReadingNeverTakesWhatTheWholeParseRefuses(line: String) {
        let bytes = Array(line.utf8)
        let whole = bytes.withUnsafeBufferPointer { JournalLine.decodeWhole($0) }
        guard case .failure = whole else {
            Issue.record("the whole parse took \(line)")
            return
        }
        #expect(bytes.withUnsafeBufferPointer { JournalLine.decodeWritersShape($0) } == nil)
        #expect(bytes.withUnsafeBufferPointer { JournalLine.decode($0) } == whole)
    }

    /// Lines the whole parse takes that are not in the writer's shape (another member order,
    /// spacing, an id written `1.0`, a space after the object): read whole, the same action.
    @Test(arguments: [
        #"{"id":42,"cause":null,"payload":1,"source":"s","time":"2026-11-28T13:00:00.125Z","type":"a/b"}"#,
        #"{"cause": null, "id": 42, "payload": 1, "source": "s", "time": "2026-11-28T13:00:00.125Z", "type": "a/b"}"#,
        line(id: "42.0"),
        line() + " ",
    ])
    func otherShapesReadWhole(line: String) throws {
        let bytes = Array(line.utf8)
        #expect(bytes.withUnsafeBufferPointer { JournalLine.decodeWritersShape($0) } == nil)
        let action = try bytes.withUnsafeBufferPointer { JournalLine.decode($0) }.get()
        #expect(action == (try bytes.withUnsafeBufferPointer { JournalLine.decodeWhole($0) }.get()))
        #expect(action.id == 42)
    }

    /// What the writer writes reads back through the shape reading, for many actions.
    @Test func writtenActionsReadBackByShape() throws {
        var generator = SystemRandomNumberGenerator()
        for index in 1...500 {
            let payload: JSON = ["n": .integer(Int64.random(in: -1_000_000...1_000_000, using: &generator)),
                                 "x": .number(Double.random(in: -180...180, using: &generator)),
                                 "s": .string(String(repeating: "é\"\\\n", count: index % 4)),
                                 "list": .array((0..<(index % 5)).map { .integer(Int64($0)) })]
            let action = BusAction(type: "t\(index % 7)/e", payload: payload, id: UInt64(index),
                                   time: BusClock.nearestMillisecond(Date(timeIntervalSince1970: 1_700_000_000 + Double(index) * 0.0371)),
                                   source: index % 3 == 0 ? "control" : "plugin-\(index)", cause: index % 2 == 0 ? UInt64(index - 1) : nil)
            var bytes: [UInt8] = []
            JournalLine.appendObject(action, to: &bytes)
            let shaped = bytes.withUnsafeBufferPointer { JournalLine.decodeWritersShape($0) }
            #expect(shaped == action, "\(String(decoding: bytes, as: UTF8.self))")
        }
    }
}
