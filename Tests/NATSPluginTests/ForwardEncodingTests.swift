import FoundationEssentials
import Testing
@testable import SwitchyardBus

@testable import NATSPlugin

/// The per-action shortcuts of publishing from the journal say exactly what the general code
/// says: the encoder's headers and `HPUB` bytes, the payload from the journal's text, and the
/// plain JetStream acknowledgement read from its bytes.
struct ForwardEncodingTests {
    private static let actions = [
        BusAction(type: "gps/fix.v2", payload: ["lat": 48.8584, "lon": 2.2945, "note": "a \"quoted\"\nline"], id: 1, time: .init(timeIntervalSince1970: 0),
                  source: "gps", cause: nil),
        BusAction(type: "demo/tick", payload: .null, id: 1_234_567_890_123, time: .init(timeIntervalSince1970: 1_800_000_000.125), source: "line\r\nbreak", cause: 3),
        BusAction(type: "demo/tick", payload: [1, 2, 3], id: 10, time: .init(timeIntervalSince1970: 1_800_000_000.125), source: "gps", cause: nil),
    ]

    /// Headers, subject, payload and the `HPUB` operation with its acknowledgement inbox are
    /// byte for byte those of the general encoding, for any id and source, from a live action
    /// or one read from the journal.
    @Test func encoderMatchesTheGeneralEncoding() throws {
        let mapping = try SubjectMapping(prefix: "fleet.eu")
        var encoder = ForwardEncoder(origin: "bus-a", mapping: mapping)
        for action in Self.actions {
            let expected = OutgoingMessage(action: action, origin: "bus-a", mapping: mapping)
            let live = encoder.message(action, isResend: false)
            var payload: [UInt8] = []
            action.payload.serialize(into: &payload)
            let journaled = encoder.message(try Self.journaled(action), isResend: true)
            #expect(journaled.payload == payload)
            #expect(live == expected)
            #expect(journaled.isResend && journaled.headers == expected.headers && journaled.payload == expected.payload
                    && journaled.subject == expected.subject && journaled.actionID == expected.actionID)
            var general: [UInt8] = []
            expected.encode(replyTo: "_INBOX.abc.\(action.id)", into: &general)
            var fast: [UInt8] = []
            live.encode(replyPrefix: Array("_INBOX.abc.".utf8), into: &fast)
            #expect(fast == general, "\(String(decoding: fast, as: UTF8.self))")
        }
    }

    /// `action` as the journal writes it and the bridge reads it back.
    private static func journaled(_ action: BusAction) throws -> JournaledAction {
        var times = TimestampText()
        var line: [UInt8] = []
        JournalLine.appendObject(action, times: &times, to: &line)
        return try line.withUnsafeBufferPointer { try JournaledAction.decode($0).get() }
    }

    /// The time header is the journal's text of the action's time, read with the action.
    @Test func theTimeHeaderIsTheJournalsText() throws {
        let action = Self.actions[1]
        let journaled = try Self.journaled(action)
        #expect(String(decoding: journaled.time, as: UTF8.self) == "2027-01-15T08:00:00.125Z")
        var encoder = ForwardEncoder(origin: "bus-a", mapping: try SubjectMapping(prefix: "fleet.eu"))
        let headers = try NATSHeaders(parsing: encoder.message(journaled, isResend: false).headers[...])
        #expect(headers["Switchyard-Time"] == "2027-01-15T08:00:00.125Z")
    }

    /// A run holds what the messages say: in core mode their `HPUB` operations one after
    /// the other, read back as the same messages; in JetStream mode the messages themselves.
    @Test(arguments: [true, false])
    func runMatchesTheMessages(holdsOperations: Bool) throws {
        let mapping = try SubjectMapping(prefix: "fleet.eu")
        var encoder = ForwardEncoder(origin: "bus-a", mapping: mapping)
        var run = OutgoingRun(holdsOperations: holdsOperations)
        var operations: [UInt8] = []
        for action in Self.actions {
            encoder.append(action, to: &run)
            OutgoingMessage(action: action, origin: "bus-a", mapping: mapping).encode(replyTo: nil, into: &operations)
        }
        let messages = Self.actions.map { OutgoingMessage(action: $0, origin: "bus-a", mapping: mapping) }
        #expect(run.messages == messages)
        #expect(run.count == messages.count && run.largest == messages.map(\.size).max())
        #expect(run.bytes == (holdsOperations ? operations : []))
        run.removeAll()
        #expect(run.isEmpty && run.bytes.isEmpty && run.largest == 0)
    }

    /// A plain acknowledgement is read from its bytes as stored or duplicate; anything else
    /// (an error, a domain, more members, damage) is left to the JSON reader, which reads it
    /// as before.
    @Test func plainAcknowledgements() {
        func reply(_ text: String) -> JetStreamReply {
            JetStreamReply(acknowledgement: NATSMessage(subject: "_INBOX.x.1", sid: "1", payload: Array(text.utf8)))
        }
        #expect(JetStreamReply.plainAcknowledgement(Array(#"{"stream":"BENCH","seq":12}"#.utf8)) == false)
        #expect(JetStreamReply.plainAcknowledgement(Array(#"{"stream":"BENCH","seq":12,"duplicate":true}"#.utf8)) == true)
        // nats-server before 2.10 writes a space after some commas and colons.
        #expect(JetStreamReply.plainAcknowledgement(Array(#"{"stream":"T", "seq":1}"#.utf8)) == false)
        #expect(JetStreamReply.plainAcknowledgement(Array(#"{"stream":"T", "seq":1,"duplicate": true}"#.utf8)) == true)
        for other in [#"{"stream":"B","domain":"hub","seq":1}"#, #"{"stream":"B","seq":}"#, #"{"stream":"","seq":1}"#,
                      #"{"error":{"code":503,"err_code":10077,"description":"busy"},"stream":"B","seq":1}"#,
                      #"{"stream":"B","seq":1,"duplicate":false}"#, #"{"stream":"B\"x","seq":1}"#, #"{"stream":"B","seq":1"#] {
            #expect(JetStreamReply.plainAcknowledgement(Array(other.utf8)) == nil, "\(other)")
        }
        if case .success(let stored) = reply(#"{"stream":"BENCH","seq":12}"#) {
            #expect(stored["duplicate"] == nil)
        } else {
            Issue.record("a plain acknowledgement was not a success")
        }
        if case .success(let duplicate) = reply(#"{"stream":"BENCH","seq":12,"duplicate":true}"#) {
            #expect(duplicate["duplicate"] == true)
        } else {
            Issue.record("a duplicate acknowledgement was not a success")
        }
        let error = #"{"error":{"code":400,"err_code":10060,"description":"expected stream does not match"}}"#
        #expect(reply(error) == JetStreamReply(NATSMessage(subject: "_INBOX.x.1", sid: "1", payload: Array(error.utf8))))
        let withDomain = #"{"stream":"B","domain":"hub","seq":1,"duplicate":true}"#
        #expect(reply(withDomain) == JetStreamReply(NATSMessage(subject: "_INBOX.x.1", sid: "1", payload: Array(withDomain.utf8))))
    }
}
