import Testing
@testable import Switchyard
@testable import SwitchyardBus
@testable import SwitchyardDoors
import SwitchyardIO

/// A session reads each request where its line reader holds it (``LineReader/withNext(_:)``),
/// not from a copy: every line, however it arrived, gives the step and the exact error reply
/// that reading a copied line gives.
struct ControlSessionReadingTests {
    /// Malformed and invalid requests, each with the error code its reply carries.
    static let malformed: [(String, String)] = [
        ("{", "malformed-json"),
        ("nope", "malformed-json"),
        (#"{"op":"dispatch","action":{"type":"a/b"}} x"#, "malformed-json"),
        (#"{"op":"dispatch","action":{"type":"a/b",}}"#, "malformed-json"),
        (#"{"op":"dispatch","action":{"type":"a/b"}"#, "malformed-json"),
        (#"{"op":"dispatch","action":{"type":"a/b","type":"c/d"}}"#, "malformed-json"),
        ("{\"op\":\"dispatch\",\"action\":{\"type\":\"a/\u{7}b\"}}", "malformed-json"),
        ("[1,2]", "invalid-request"),
        (#"{}"#, "missing-field"),
        (#"{"op":"dispatch"}"#, "missing-field"),
        (#"{"op":"Dispatch","action":{"type":"a/b"}}"#, "unknown-op"),
        (#"{"op":"dispatch","action":{"type":"a/b"},"extra":1}"#, "invalid-field"),
        (#"{"op":"dispatch","action":5}"#, "invalid-action"),
        (#"{"op":"dispatch","action":{}}"#, "invalid-action"),
        (#"{"op":"dispatch","action":{"type":"NotAType"}}"#, "invalid-action"),
        (#"{"op":"dispatch","action":{"type":"a/b","payloda":1}}"#, "invalid-action"),
        (#"{"op":"dispatch","action":{"type":"a/b","cause":1.5}}"#, "invalid-action"),
        (#"{"op":"dispatch","action":{"type":"a/b","source":1}}"#, "invalid-action"),
    ]

    /// How the bytes of a line reach the session: whole, a byte at a time, or with CRLF.
    enum Arrival: CaseIterable, Sendable {
        case whole, byteByByte, crlf
    }

    private func steps(for line: String, arriving arrival: Arrival) -> [ControlSession.Step] {
        var session = ControlSession(maximumLineLength: 1024)
        let ending = arrival == .crlf ? "\r\n" : "\n"
        let bytes = Array((line + ending + #"{"op":"stats"}"# + ending).utf8)
        var steps: [ControlSession.Step] = []
        let pieces: [ArraySlice<UInt8>] = arrival == .byteByByte ? bytes.indices.map { bytes[$0...$0] } : [bytes[...]]
        for piece in pieces {
            piece.withUnsafeBytes { session.receive($0) }
            while let step = session.nextStep() {
                steps.append(step)
                // The bus answers at once, so the request after a dispatch is not held.
                if case .dispatch = step { session.completed() }
            }
        }
        return steps
    }

    /// Each malformed request gets the error reply a copied line gets, with its code and
    /// message, and the connection goes on with the next request.
    @Test(arguments: malformed, Arrival.allCases)
    func malformedRequestsGetTheSameReply(request: (line: String, code: String), arrival: Arrival) throws {
        var expected: ControlError?
        do {
            _ = try ControlRequest(line: Array(request.line.utf8))
        } catch {
            expected = error
        }
        let error = try #require(expected)
        #expect(error.code == request.code)
        #expect(steps(for: request.line, arriving: arrival) == [.error(error), .stats])
    }

    /// Dispatches, plain or not, become the same action as from a copied line.
    @Test(arguments: [
        #"{"op":"dispatch","action":{"type":"load/n","payload":{"n":1}}}"#,
        #" { "action" : { "payload" : [1, "x"], "type" : "a/b" }, "op" : "dispatch" } "#,
        #"{"op":"dispatch","action":{"type":"a/b","id":4,"time":"2026-11-22T09:30:00.125Z"}}"#,
        #"{"o\u0070":"dis\u0070atch","action":{"typ\u0065":"a/b"}}"#,
    ], Arrival.allCases)
    func dispatchesMatchACopiedLine(line: String, arrival: Arrival) throws {
        guard case .dispatch(let action) = try ControlRequest(line: Array(line.utf8)) else {
            Issue.record("not a dispatch: \(line)")
            return
        }
        #expect(steps(for: line, arriving: arrival) == [.dispatch(action), .stats])
    }

    /// A line over the limit is refused without being lent out, and the next one is read.
    @Test(arguments: Arrival.allCases)
    func tooLongLinesAreRefused(arrival: Arrival) {
        let line = #"{"op":"dispatch","action":{"type":"a/b","payload":""# + String(repeating: "x", count: 2000) + #""}}"#
        #expect(steps(for: line, arriving: arrival) == [.error(.lineTooLong(limit: 1024)), .stats])
    }
}
