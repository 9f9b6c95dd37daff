import Testing
@testable import Switchyard
@testable import SwitchyardBus
@testable import SwitchyardDoors

/// The direct reading of plain dispatch requests (``ControlRequest/plainDispatch(_:lastType:)``) gives
/// exactly what the general reading gives, and leaves everything else to it.
struct ControlDispatchReadingTests {
    /// The general reading: the whole line as JSON, then the request from it.
    private func general(_ line: String) -> ControlRequest? {
        guard let value = try? JSON(parsingInput: Array(line.utf8)) else { return nil }
        return try? ControlRequest(json: value)
    }

    private func plain(_ line: String) -> BusAction? {
        Array(line.utf8).withUnsafeBufferPointer { bytes in
            var lastType: String?
            return ControlRequest.plainDispatch(bytes, lastType: &lastType)
        }
    }

    /// Plain dispatches, in any member order and spacing, are read directly and as the general
    /// reading reads them.
    @Test(arguments: [
        #"{"op":"dispatch","action":{"type":"load/n","payload":{"n":1}}}"#,
        #"{"action":{"payload":[1,2,{"a":null}],"type":"location/changed"},"op":"dispatch"}"#,
        #" { "op" : "dispatch" , "action" : { "type" : "a/b" } } "#,
        #"{"op":"dispatch","action":{"type":"a/b","source":"me","cause":7,"payload":"x"}}"#,
        #"{"op":"dispatch","action":{"type":"a/b","cause":null,"payload":null}}"#,
        #"{"op":"dispatch","action":{"type":"a/b","cause":3.0}}"#,
        #"{"op":"dispatch","action":{"type":"a\/b","payload":{"é":"\u00e9\n"}}}"#,
    ])
    func plainDispatchesMatchTheGeneralReading(line: String) throws {
        let action = try #require(plain(line))
        #expect(general(line) == .dispatch(action))
        #expect(try ControlRequest(line: Array(line.utf8)) == .dispatch(action))
    }

    /// Anything else is left to the general reading, which then reports the same error or
    /// request it always did.
    @Test(arguments: [
        #"{"op":"state"}"#,
        #"{"op":"dispatch"}"#,
        #"{"op":"dispatch","action":{"type":"a/b"},"extra":1}"#,
        #"{"op":"dispatch","action":{"type":"a/b"},"op":"dispatch"}"#,
        #"{"op":"dispatch","action":{"type":"a/b","type":"c/d"}}"#,
        #"{"op":"dispatch","action":{"type":"A/B"}}"#,
        #"{"op":"dispatch","action":{"type":"a/b","cause":-1}}"#,
        #"{"op":"dispatch","action":{"type":"a/b","cause":1.5}}"#,
        #"{"op":"dispatch","action":{"type":"a/b","source":1}}"#,
        #"{"op":"dispatch","action":{"type":"a/b","id":4,"time":"2026-11-22T09:30:00.125Z"}}"#,
        #"{"op":"dispatch","action":{"type":"a/b","payloda":1}}"#,
        #"{"op":"dispatch","action":{"payload":1}}"#,
        #"{"op":"dispatch","action":[]}"#,
        #"{"op":"dispatch","action":{}}"#,
        #"{"op":"dispatch","action":{"type":"a/b",}}"#,
        #"{"op":"dispatch","action":{"type":"a/b"}} x"#,
        #"{"op":"dispatch","action":{"type":"a/b"}"#,
        #"{"op":"Dispatch","action":{"type":"a/b"}}"#,
        #"{}"#,
        #"[]"#,
    ])
    func otherLinesAreLeftToTheGeneralReading(line: String) {
        #expect(plain(line) == nil)
        let direct = try? ControlRequest(line: Array(line.utf8))
        #expect(direct == general(line))
    }

    /// After a dispatch of `a/b`, a line whose type starts with those bytes but is not exactly
    /// that type, or is that type spelled with an escape, reads as the general reading reads it:
    /// only a type written as the same bytes, quotes included, is taken without checking.
    @Test(arguments: [
        #"{"op":"dispatch","action":{"type":"a/b","payload":2}}"#,
        #"{"op":"dispatch","action":{"type":"a/bc"}}"#,
        #"{"op":"dispatch","action":{"type":"a/b\u0041"}}"#,
        #"{"op":"dispatch","action":{"type":"a\/b"}}"#,
        #"{"op":"dispatch","action":{"type":"a/b"x}}"#,
        #"{"op":"dispatch","action":{"type":"a/B"}}"#,
        #"{"op":"dispatch","action":{"type":"a/"#,
        #"{"op":"dispatch","action":{"type":"a/b","type":"a/b"}}"#,
    ])
    func aTypeReusedFromTheLastDispatchReadsAsTheGeneralReading(line: String) throws {
        var lastType: String?
        _ = try ControlRequest(line: Array(#"{"op":"dispatch","action":{"type":"a/b"}}"#.utf8), lastType: &lastType)
        #expect(lastType == "a/b")
        let reused = try? ControlRequest(line: Array(line.utf8), lastType: &lastType)
        #expect(reused == general(line))
        #expect(reused == (try? ControlRequest(line: Array(line.utf8))))
    }

    /// Nesting counts the request and action objects, as the general reading does: a payload
    /// one level too deep is refused by both.
    @Test func nestingLimitIsTheGeneralOne() {
        let depth = JSONLimits.maximumDepth
        let fits = String(repeating: "[", count: depth - 2) + String(repeating: "]", count: depth - 2)
        let tooDeep = String(repeating: "[", count: depth - 1) + String(repeating: "]", count: depth - 1)
        let line = { (payload: String) in #"{"op":"dispatch","action":{"type":"a/b","payload":"# + payload + "}}" }
        #expect(plain(line(fits)) != nil)
        #expect(general(line(fits)) != nil)
        #expect(plain(line(tooDeep)) == nil)
        #expect(general(line(tooDeep)) == nil)
    }
}
