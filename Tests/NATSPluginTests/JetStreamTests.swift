import SwitchyardBus
import Testing

@testable import NATSPlugin

/// JetStream setup, pull requests and replies, without a server.
struct JetStreamTests {
    static let stream = StreamConfiguration(name: "SWITCHYARD", subjects: ["switchyard.>"])
    static let consumer = ConsumerConfiguration(durable: "bus-b", filterSubject: "switchyard.demo.>")

    static func reply(_ json: String) -> JetStreamReply {
        JetStreamReply(NATSMessage(subject: "_INBOX.x.r1", sid: "1", payload: Array(json.utf8)))
    }

    static let streamNotFound = reply(#"{"error":{"code":404,"err_code":10059,"description":"stream not found"}}"#)
    static let consumerNotFound = reply(#"{"error":{"code":404,"err_code":10014,"description":"consumer not found"}}"#)
    static let streamInfo = reply(#"{"config":{"name":"SWITCHYARD","subjects":["switchyard.>"]}}"#)

    private func body(_ step: JetStreamSetup.Step) throws -> JSON {
        guard case .request(_, let body) = step else { throw SetupStepError(step: step) }
        return try JSON(parsing: body)
    }

    private struct SetupStepError: Error { let step: JetStreamSetup.Step }

    /// A missing stream and consumer are created with the configured settings.
    @Test func createsWhatIsMissing() throws {
        var setup = JetStreamSetup(stream: Self.stream, consumer: Self.consumer, published: [try SubjectPattern("switchyard.demo.>")])
        let first = setup.start()
        #expect(first == .request(subject: "$JS.API.STREAM.INFO.SWITCHYARD", body: []))
        let create = setup.handle(Self.streamNotFound)
        guard case .request("$JS.API.STREAM.CREATE.SWITCHYARD", _) = create else { throw SetupStepError(step: create) }
        let stream = try body(create)
        #expect(stream["subjects"] == ["switchyard.>"] && stream["retention"] == "limits" && stream["storage"] == "file")
        #expect(stream["duplicate_window"] == .integer(120_000_000_000) && stream["max_msgs"] == -1)
        let afterStream = setup.handle(Self.streamInfo)
        #expect(afterStream == .request(subject: "$JS.API.CONSUMER.INFO.SWITCHYARD.bus-b", body: []))
        let consumer = setup.handle(Self.consumerNotFound)
        guard case .request("$JS.API.CONSUMER.DURABLE.CREATE.SWITCHYARD.bus-b", _) = consumer else { throw SetupStepError(step: consumer) }
        let config = try body(consumer)["config"]
        #expect(config?["durable_name"] == "bus-b" && config?["ack_policy"] == "explicit" && config?["deliver_policy"] == "new")
        #expect(config?["filter_subject"] == "switchyard.demo.>" && config?["ack_wait"] == .integer(30_000_000_000))
        let afterConsumer = setup.handle(Self.reply(#"{"name":"bus-b"}"#))
        #expect(afterConsumer == .done(warnings: []))
    }

    /// Existing ones are used as they are, with a warning where they differ from the settings.
    @Test func usesWhatExists() throws {
        var setup = JetStreamSetup(stream: Self.stream, consumer: Self.consumer, published: [try SubjectPattern("switchyard.gps.fix")])
        _ = setup.start()
        _ = setup.handle(Self.reply(#"{"config":{"subjects":["other.>"]}}"#))
        let done = setup.handle(Self.reply(#"{"config":{"filter_subject":"switchyard.>"}}"#))
        #expect(done == .done(warnings: [
            #"stream "SWITCHYARD" captures ["other.>"] but not "switchyard.gps.fix"; the server will refuse those actions"#,
            #"consumer "bus-b" exists with filter "switchyard.>" instead of "switchyard.demo.>"; delete it to change it"#,
        ]))
        var publisher = JetStreamSetup(stream: Self.stream, consumer: nil, published: [])
        _ = publisher.start()
        let publisherDone = publisher.handle(Self.streamInfo)
        #expect(publisherDone == .done(warnings: []))
    }

    /// JetStream being off, and API errors, fail the setup with the server's words.
    @Test func failures() {
        var off = JetStreamSetup(stream: Self.stream, consumer: Self.consumer, published: [])
        _ = off.start()
        let offStep = off.handle(JetStreamReply(NATSMessage(subject: "x", sid: "1", headers: NATSHeaders(status: 503))))
        #expect(offStep
            == .failed("JetStream is not enabled on the server (no responders for its API; start nats-server with -js)"))
        var refused = JetStreamSetup(stream: Self.stream, consumer: Self.consumer, published: [])
        _ = refused.start()
        _ = refused.handle(Self.streamNotFound)
        let overlap = refused.handle(Self.reply(#"{"error":{"code":400,"err_code":10052,"description":"subjects overlap with an existing stream"}}"#))
        #expect(overlap
            == .failed(#"stream "SWITCHYARD": subjects overlap with an existing stream (error 10052)"#))
        var consumer = JetStreamSetup(stream: Self.stream, consumer: Self.consumer, published: [])
        _ = consumer.start()
        _ = consumer.handle(Self.streamInfo)
        let notUpdatable = consumer.handle(Self.reply(#"{"error":{"code":500,"err_code":10012,"description":"deliver policy can not be updated"}}"#))
        #expect(notUpdatable
            == .failed(#"consumer "bus-b" of stream "SWITCHYARD": deliver policy can not be updated (error 10012)"#))
        #expect(Self.reply("garbage") == .failure(JetStreamAPIError(code: 0, errorCode: 0, description: "unreadable reply \"garbage\"")))
    }

    /// One pull request is outstanding at a time; it ends after its batch, a status, or a lost reply's deadline.
    @Test func pullRequests() throws {
        var pulls = PullRequests(batch: 2, expires: .seconds(5))
        let firstRequest = pulls.next(now: .zero)
        let first = try #require(firstRequest)
        #expect(first.token == "f1")
        #expect(try JSON(parsing: first.body) == ["batch": 2, "expires": .integer(5_000_000_000)])
        let whileOutstanding = pulls.next(now: .seconds(1))
        #expect(whileOutstanding == nil)
        pulls.delivered()
        #expect(pulls.isOutstanding)
        pulls.delivered()
        #expect(!pulls.isOutstanding)
        let afterBatch = pulls.next(now: .seconds(1))?.token
        #expect(afterBatch == "f2")
        pulls.ended(token: "f1")
        #expect(pulls.isOutstanding)
        pulls.ended(token: "f2")
        let afterStatus = pulls.next(now: .seconds(2))?.token
        #expect(afterStatus == "f3")
        let beforeDeadline = pulls.next(now: .seconds(7) + .milliseconds(999))
        #expect(beforeDeadline == nil)
        let afterDeadline = pulls.next(now: .seconds(8))?.token
        #expect(afterDeadline == "f4")
        pulls.reset()
        let afterReset = pulls.next(now: .seconds(8))?.token
        #expect(afterReset == "f5")
    }

    /// Reconnect delays double up to the maximum, and jitter takes at most half of each.
    @Test func backoff() {
        let backoff = Backoff(initial: .milliseconds(250), maximum: .seconds(10), jitter: 0.5)
        #expect((1...8).map { backoff.delay(attempt: $0, random: 0) }
            == [.milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(10), .seconds(10)])
        #expect(backoff.delay(attempt: 3, random: 1) == .milliseconds(500))
        #expect(backoff.delay(attempt: 3, random: 0.5) == .milliseconds(750))
        #expect(backoff.delay(attempt: 1000, random: 0) == .seconds(10))
        #expect(backoff.delay(attempt: 0, random: 0) == .milliseconds(250))
    }
}

/// Deciding what messages from NATS become.
struct InboundDecoderTests {
    private func message(_ subject: String, origin: String? = "bus-a", id: String? = "bus-a-1", payload: String = "{\"x\":1}") -> NATSMessage {
        var fields: [NATSHeaders.Field] = []
        if let origin { fields.append(.init("Switchyard-Origin", origin)) }
        if let id { fields.append(.init("Nats-Msg-Id", id)) }
        return NATSMessage(subject: subject, sid: "2", headers: fields.isEmpty ? nil : NATSHeaders(fields), payload: Array(payload.utf8))
    }

    /// An action from another bus gets source `nats:<origin>`; a second delivery of its id is a duplicate.
    @Test func actions() {
        var decoder = InboundDecoder(origin: "bus-b", mapping: .standard)
        let fromOtherBus = decoder.decide(message("switchyard.gps.fix"))
        #expect(fromOtherBus == .action(type: "gps/fix", payload: ["x": 1], source: "nats:bus-a", messageID: "bus-a-1"))
        let again = decoder.decide(message("switchyard.gps.fix"))
        #expect(again == .duplicate)
        decoder.forget("bus-a-1")
        let afterForget = decoder.decide(message("switchyard.gps.fix"))
        #expect(afterForget != .duplicate)
        let fromOutside = decoder.decide(message("switchyard.gps.fix", origin: nil, id: nil, payload: ""))
        #expect(fromOutside == .action(type: "gps/fix", payload: .null, source: "nats:unknown", messageID: nil))
    }

    /// This bus's own actions are dropped.
    @Test func ownOrigin() {
        var decoder = InboundDecoder(origin: "bus-a", mapping: .standard)
        let own = decoder.decide(message("switchyard.gps.fix"))
        #expect(own == .ownOrigin)
    }

    /// Messages that are not actions are reported with the reason.
    @Test(arguments: [
        ("switchyard.GPS", "{}", "the subject \"switchyard.GPS\" is not \"switchyard.DOMAIN.EVENT\""),
        ("switchyard.gps.fix", "{oops", "the payload is not JSON: line 1, column 2"),
    ])
    func invalid(_ subject: String, _ payload: String, _ reason: String) {
        var decoder = InboundDecoder(origin: "bus-b", mapping: .standard)
        guard case .invalid(let found) = decoder.decide(message(subject, payload: payload)) else {
            Issue.record("expected an invalid message")
            return
        }
        #expect(found.hasPrefix(reason))
        let bad = NATSMessage(subject: "switchyard.a.b", sid: "2", headerProblem: .malformedHeaders("x"))
        let badHeaders = decoder.decide(bad)
        #expect(badHeaders == .invalid(reason: "malformed message headers: x"))
    }

    /// A refused message does not leave its id remembered, so a corrected message with that id
    /// is taken; a run of one subject keeps its type when another subject comes between.
    @Test func refusedIDIsNotRemembered() {
        var decoder = InboundDecoder(origin: "bus-b", mapping: .standard)
        guard case .invalid(let reason) = decoder.decide(message("switchyard.gps.fix", payload: "{oops")) else {
            Issue.record("expected an invalid message")
            return
        }
        #expect(reason.hasPrefix("the payload is not JSON"))
        let corrected = decoder.decide(message("switchyard.gps.fix"))
        #expect(corrected == .action(type: "gps/fix", payload: ["x": 1], source: "nats:bus-a", messageID: "bus-a-1"))
        let other = decoder.decide(message("switchyard.gps.sky", id: "bus-a-2"))
        #expect(other == .action(type: "gps/sky", payload: ["x": 1], source: "nats:bus-a", messageID: "bus-a-2"))
        let back = decoder.decide(message("switchyard.gps.fix", id: "bus-a-3"))
        #expect(back == .action(type: "gps/fix", payload: ["x": 1], source: "nats:bus-a", messageID: "bus-a-3"))
        let badSubject = decoder.decide(message("switchyard.GPS", id: "bus-a-4"))
        #expect(badSubject == .invalid(reason: "the subject \"switchyard.GPS\" is not \"switchyard.DOMAIN.EVENT\""))
        #expect(decoder.decide(message("switchyard.gps.fix", id: "bus-a-4")) != .duplicate)
    }

    /// The memory of ids is bounded: the oldest is forgotten first.
    @Test func recentIDsAreBounded() {
        var recent = RecentMessageIDs(capacity: 3)
        for id in ["a", "b", "c"] {
            let inserted = recent.insert(id)
            #expect(inserted)
        }
        let again = recent.insert("a")
        #expect(!again)
        let fourth = recent.insert("d")
        #expect(fourth)
        #expect(!recent.contains("a"))
        #expect(recent.contains("b") && recent.contains("c") && recent.contains("d"))
    }

    /// A memory larger than its first reservation keeps every id across the step to its full
    /// size, and forgets the oldest first once full.
    @Test func recentIDsKeepTheirOrderAcrossTheirGrowth() {
        var recent = RecentMessageIDs(capacity: 3000)
        for number in 0..<3000 {
            let inserted = recent.insert("id-\(number)")
            #expect(inserted)
        }
        #expect((0..<3000).allSatisfy { recent.contains("id-\($0)") })
        let repeated = recent.insert("id-1500")
        #expect(!repeated)
        for number in 3000..<3010 { recent.insert("id-\(number)") }
        #expect((0..<10).allSatisfy { !recent.contains("id-\($0)") })
        #expect((10..<3010).allSatisfy { recent.contains("id-\($0)") })
    }
}
