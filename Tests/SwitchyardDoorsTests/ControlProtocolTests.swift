import Testing
@testable import Switchyard
@testable import SwitchyardBus
@testable import SwitchyardDoors
import SwitchyardIO

/// The control protocol without sockets: request parsing, line framing, outboxes and the
/// per-connection session.
struct ControlProtocolTests {
    /// Valid requests parse into their operations.
    @Test(arguments: [
        (#"{"op":"state"}"#, ControlRequest.state(path: "")),
        (#"{"op":"state","path":"places.value"}"#, .state(path: "places.value")),
        (#"{"op":"stats"}"#, .stats),
        (#"{"op":"watch","actions":"gps/*"}"#, .watch(actions: TypePattern("gps/*"), state: nil)),
        (#"{"op":"watch","state":"location"}"#, .watch(actions: nil, state: "location")),
        (#"{"op":"watch","actions":"*","state":""}"#, .watch(actions: .all, state: "")),
    ])
    func validRequests(line: String, expected: ControlRequest) throws {
        #expect(try ControlRequest(line: Array(line.utf8)) == expected)
    }

    /// A dispatch carries its action, sourced `control` unless it says otherwise.
    @Test func dispatchRequest() throws {
        let request = try ControlRequest(line: Array(#"{"op":"dispatch","action":{"type":"location/changed","payload":{"lat":1.5},"cause":3}}"#.utf8))
        guard case .dispatch(let action) = request else {
            Issue.record("not a dispatch: \(request)")
            return
        }
        #expect(action.type == "location/changed")
        #expect(action.payload == ["lat": 1.5])
        #expect(action.source == "control")
        #expect(action.cause == 3)
        #expect(try ControlRequest(json: request.json) == request)
    }

    /// Every bad request gets its own error code.
    @Test(arguments: [
        ("{", "malformed-json"),
        ("nope", "malformed-json"),
        ("[1,2]", "invalid-request"),
        (#""state""#, "invalid-request"),
        (#"{}"#, "missing-field"),
        (#"{"path":"x"}"#, "missing-field"),
        (#"{"op":7}"#, "invalid-field"),
        (#"{"op":"explode"}"#, "unknown-op"),
        (#"{"op":"dispatch"}"#, "missing-field"),
        (#"{"op":"dispatch","action":5}"#, "invalid-action"),
        (#"{"op":"dispatch","action":{"payload":1}}"#, "invalid-action"),
        (#"{"op":"dispatch","action":{"type":"NotAType"}}"#, "invalid-action"),
        (#"{"op":"dispatch","action":{"type":"a/b","payloda":1}}"#, "invalid-action"),
        (#"{"op":"dispatch","action":{"type":"a/b","cause":-1}}"#, "invalid-action"),
        (#"{"op":"state","path":3}"#, "invalid-field"),
        (#"{"op":"state","pth":"x"}"#, "invalid-field"),
        (#"{"op":"watch"}"#, "missing-field"),
        (#"{"op":"watch","actions":"Bad Pattern"}"#, "invalid-field"),
        (#"{"op":"watch","actions":7}"#, "invalid-field"),
        (#"{"op":"stats","verbose":true}"#, "invalid-field"),
    ])
    func invalidRequests(line: String, code: String) {
        do {
            let request = try ControlRequest(line: Array(line.utf8))
            Issue.record("accepted \(line) as \(request)")
        } catch {
            #expect(error.code == code)
            #expect(!error.message.isEmpty)
            #expect(error.json["ok"] == false)
        }
    }

    /// Misspelt members get a suggestion, and an unknown op lists the known ones.
    @Test func helpfulMessages() {
        #expect(throws: ControlError.self) { try ControlRequest(line: Array(#"{"op":"state","pth":"x"}"#.utf8)) }
        do {
            _ = try ControlRequest(line: Array(#"{"op":"dispatch","action":{"type":"a/b","payloda":1}}"#.utf8))
        } catch {
            #expect(error.message.contains("did you mean \"payload\""))
        }
        do {
            _ = try ControlRequest(line: Array(#"{"op":"stat"}"#.utf8))
        } catch {
            #expect(error.message.contains("dispatch, state, watch, stats"))
        }
    }

    /// Lines split on newlines with CRLF and blank lines handled, and a last unterminated one counted.
    @Test func lineFraming() {
        var reader = LineReader(maximumLength: 100)
        feed(&reader, "a\r\n\n")
        feed(&reader, "bc")
        #expect(reader.next() == .line(Array("a".utf8)))
        #expect(reader.next() == nil)
        #expect(reader.needsInput)
        feed(&reader, "d\nef")
        #expect(reader.next() == .line(Array("bcd".utf8)))
        #expect(reader.next() == nil)
        reader.end()
        #expect(reader.next() == .line(Array("ef".utf8)))
        #expect(reader.next() == nil)
        #expect(reader.isFinished)
    }

    /// A line over the limit is reported once and dropped up to its newline; memory stays bounded.
    @Test func oversizedLinesAreDiscarded() {
        var reader = LineReader(maximumLength: 8)
        feed(&reader, "0123456789")
        #expect(reader.next() == .tooLong)
        #expect(reader.bufferedCount == 0)
        for _ in 0..<1000 { feed(&reader, "xxxxxxxxxxxxxxxx") }
        #expect(reader.bufferedCount == 0)
        #expect(reader.next() == nil)
        feed(&reader, "yy\nok\n")
        #expect(reader.next() == .line(Array("ok".utf8)))
        feed(&reader, "123456789\nfine\n")
        #expect(reader.next() == .tooLong)
        #expect(reader.next() == .line(Array("fine".utf8)))
    }

    /// The outbox refuses to grow past its capacity, but always takes a line when empty.
    @Test func outboxIsBounded() {
        let outbox = ConnectionOutbox(capacity: 10)
        #expect(outbox.append(Array("0123456789abc\n".utf8)) == .queued)
        #expect(outbox.append(Array("x\n".utf8)) == .overCapacity)
        var sent: [UInt8] = []
        _ = outbox.flush { bytes in
            let count = min(4, bytes.count)
            sent.append(contentsOf: bytes.prefix(count))
            return count
        }
        #expect(sent == Array("0123456789abc\n".utf8))
        #expect(outbox.pendingCount == 0)
        #expect(outbox.append(Array("x\n".utf8)) == .queued)
        outbox.close()
        #expect(outbox.append(Array("y\n".utf8)) == .closed)
    }

    /// Dropping keeps the rest of a line already partly sent, then the last error line.
    @Test func outboxDropKeepsFraming() {
        let outbox = ConnectionOutbox(capacity: 1000)
        _ = outbox.append(Array("first line\n".utf8))
        _ = outbox.append(Array("second line\n".utf8))
        var sent: [UInt8] = []
        _ = outbox.flush { bytes in
            guard sent.isEmpty else { return 0 }
            sent.append(contentsOf: bytes.prefix(5))
            return 5
        }
        #expect(outbox.drop(reason: "slow", line: Array("error\n".utf8)))
        #expect(!outbox.drop(reason: "again", line: Array("error\n".utf8)))
        _ = outbox.flush { bytes in
            sent.append(contentsOf: bytes)
            return bytes.count
        }
        #expect(String(decoding: sent, as: UTF8.self) == "first line\nerror\n")
        #expect(outbox.takeEvents()?.dropped == "slow")
        #expect(outbox.append(Array("late\n".utf8)) == .closed)
    }

    /// A session answers in request order: requests after a dispatch wait for its completion.
    @Test func sessionOrdersRequests() {
        var session = ControlSession(maximumLineLength: 1024)
        receive(&session, #"{"op":"dispatch","action":{"type":"a/b"}}"# + "\n" + #"{"op":"state"}"# + "\n")
        guard case .dispatch(let action) = session.nextStep() else {
            Issue.record("expected a dispatch")
            return
        }
        #expect(action.type == "a/b")
        #expect(session.isBusy)
        #expect(session.nextStep() == nil)
        session.completed()
        #expect(session.nextStep() == .state(path: ""))
        #expect(session.nextStep() == nil)
    }

    /// Consecutive dispatches go out together; anything after them waits, so replies keep order.
    @Test func sessionPipelinesDispatches() {
        var session = ControlSession(maximumLineLength: 1024)
        let dispatch = #"{"op":"dispatch","action":{"type":"a/b"}}"# + "\n"
        receive(&session, dispatch + dispatch + dispatch + "oops\n" + dispatch)
        for _ in 0..<3 {
            guard case .dispatch = session.nextStep() else {
                Issue.record("expected a dispatch")
                return
            }
        }
        #expect(session.inFlight == 3)
        #expect(session.nextStep() == nil)
        session.completed()
        session.completed()
        #expect(session.nextStep() == nil)
        session.completed()
        guard case .error(let error) = session.nextStep() else {
            Issue.record("expected the error once the dispatches were answered")
            return
        }
        #expect(error.code == "malformed-json")
        guard case .dispatch = session.nextStep() else {
            Issue.record("expected the last dispatch")
            return
        }
    }

    /// A dispatch waiting for room in the bus holds the next ones back, so none overtakes it.
    @Test func sessionSerializesAfterAFullInbox() {
        var session = ControlSession(maximumLineLength: 1024)
        let dispatch = #"{"op":"dispatch","action":{"type":"a/b"}}"# + "\n"
        receive(&session, dispatch + dispatch)
        guard case .dispatch = session.nextStep() else {
            Issue.record("expected a dispatch")
            return
        }
        session.serializeDispatches()
        #expect(session.nextStep() == nil)
        session.completed()
        guard case .dispatch = session.nextStep() else {
            Issue.record("expected the second dispatch once the first was answered")
            return
        }
    }

    /// Bad lines produce error steps and the session goes on with the next line.
    @Test func sessionSurvivesBadInput() {
        var session = ControlSession(maximumLineLength: 16)
        receive(&session, "{oops\n" + String(repeating: "z", count: 40) + "\n" + #"{"op":"stats"}"# + "\n")
        guard case .error(let first) = session.nextStep(), case .error(let second) = session.nextStep() else {
            Issue.record("expected two errors")
            return
        }
        #expect(first.code == "malformed-json")
        #expect(second.code == "line-too-long")
        #expect(session.nextStep() == .stats)
    }

    /// After a watch, requests on the same connection are refused with `busy`.
    @Test func watchingSessionRefusesRequests() {
        var session = ControlSession(maximumLineLength: 1024)
        receive(&session, #"{"op":"watch","actions":"*"}"# + "\n" + #"{"op":"stats"}"# + "\n")
        #expect(session.nextStep() == .watch(actions: .all, state: nil))
        #expect(session.nextStep() == .error(.busy))
        #expect(session.isWatching)
    }

    /// A session finishes once its input ended and every request was answered.
    @Test func sessionFinishesAfterInputEnds() {
        var session = ControlSession(maximumLineLength: 1024)
        receive(&session, #"{"op":"dispatch","action":{"type":"a/b"}}"#)
        #expect(session.nextStep() == nil)
        session.receiveEnd()
        #expect(!session.isFinished)
        guard case .dispatch = session.nextStep() else {
            Issue.record("the unterminated last line was not taken")
            return
        }
        #expect(!session.isFinished)
        session.completed()
        #expect(session.isFinished)
        #expect(!session.wantsInput(readAhead: 100))
    }

    /// A session stops reading ahead at its limit unless only more input can complete a line.
    @Test func sessionReadAhead() {
        var session = ControlSession(maximumLineLength: 1 << 20)
        receive(&session, #"{"op":"dispatch","action":{"type":"a/b"}}"# + "\n" + String(repeating: " ", count: 200))
        _ = session.nextStep()
        #expect(!session.wantsInput(readAhead: 100))
        session.completed()
        #expect(session.nextStep() == nil)
        #expect(session.wantsInput(readAhead: 100))
    }

    private func feed(_ reader: inout LineReader, _ text: String) {
        Array(text.utf8).withUnsafeBytes { reader.append($0) }
    }

    private func receive(_ session: inout ControlSession, _ text: String) {
        Array(text.utf8).withUnsafeBytes { session.receive($0) }
    }
}
