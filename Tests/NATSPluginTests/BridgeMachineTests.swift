import SwitchyardBus
import Testing

@testable import NATSPlugin

/// The bridge's decisions, fed with made-up server messages and times.
struct BridgeMachineTests {
    static let inbox = "_INBOX.t"

    static func configuration(
        _ mode: NATSMode,
        subscriptions: [String] = ["switchyard.demo.>"],
        capacity: Int = 100,
        window: Int = 2,
        batch: Int = 10
    ) -> BridgeMachine.Configuration {
        let patterns = subscriptions.compactMap { try? SubjectPattern($0) }
        return BridgeMachine.Configuration(
            mode: mode, mapping: .standard, subscriptions: patterns, published: [], capacity: capacity, overflow: .dropOldest,
            window: window, batch: batch, expires: .seconds(5), requestTimeout: .seconds(5),
            stream: mode == .jetstream ? StreamConfiguration(name: "SWITCHYARD", subjects: ["switchyard.>"]) : nil,
            consumer: mode == .jetstream && !patterns.isEmpty
                ? ConsumerConfiguration(durable: "bus-b", filterSubject: patterns.count == 1 ? patterns[0].description : nil) : nil
        )
    }

    static func text(_ effects: BridgeMachine.Effects) -> String {
        String(decoding: effects.bytes, as: UTF8.self)
    }

    static func reply(_ token: String, _ json: String = "{}", status: Int? = nil, description: String = "") -> NATSMessage {
        NATSMessage(subject: "\(inbox).\(token)", sid: "1", headers: status.map { NATSHeaders(status: $0, statusDescription: description) },
                    payload: Array(json.utf8))
    }

    static func delivery(_ subject: String, sequence: Int) -> NATSMessage {
        NATSMessage(subject: subject, sid: "1", replyTo: "$JS.ACK.SWITCHYARD.bus-b.1.\(sequence).\(sequence).0.0",
                    headers: NATSHeaders([.init("Switchyard-Origin", "bus-a")]), payload: Array("{}".utf8))
    }

    /// A JetStream machine that has set up its stream and consumer and is ready.
    static func readyJetStream(window: Int = 2, subscriptions: [String] = ["switchyard.demo.>"]) -> BridgeMachine {
        var machine = BridgeMachine(configuration: configuration(.jetstream, subscriptions: subscriptions, window: window))
        _ = machine.connected(maxPayload: 1 << 20, inbox: inbox, now: .zero)
        _ = machine.received(reply("r1", #"{"config":{"subjects":["switchyard.>"]}}"#), now: .zero)
        _ = machine.received(reply("r2", #"{"config":{}}"#), now: .zero)
        return machine
    }

    /// A core run waits in the outbox while disconnected and goes out in order on connect;
    /// connected, it is written as its bytes; with a message above `max_payload` in it, each
    /// action is submitted on its own: that one is reported and counted failed, the rest sent.
    @Test func coreRun() {
        var machine = BridgeMachine(configuration: Self.configuration(.core))
        var encoder = ForwardEncoder(origin: "bus-a", mapping: .standard)
        var run = OutgoingRun(holdsOperations: true)
        func action(_ id: UInt64, _ payload: JSON) -> BusAction {
            BusAction(type: "demo/tick", payload: payload, id: id, time: .init(timeIntervalSince1970: 0), source: "emit", cause: nil)
        }
        for id in 1...2 { encoder.append(action(UInt64(id), ["n": .integer(Int64(id))]), to: &run) }
        var effects = BridgeMachine.Effects()
        machine.submit(run, now: .zero, into: &effects)
        #expect(effects.bytes.isEmpty && machine.heldCount == 2)
        let connected = Self.text(machine.connected(maxPayload: 200, inbox: Self.inbox, now: .zero))
        #expect(connected.contains("bus-a-1") && connected.contains("bus-a-2") && machine.publishedCount == 2)
        run.removeAll()
        encoder.append(action(3, ["n": 3]), to: &run)
        effects = BridgeMachine.Effects()
        machine.submit(run, now: .zero, into: &effects)
        #expect(effects.bytes == run.bytes && machine.publishedCount == 3)
        run.removeAll()
        encoder.append(action(4, ["n": 4]), to: &run)
        encoder.append(action(5, ["pad": .string(String(repeating: "x", count: 300))]), to: &run)
        encoder.append(action(6, ["n": 6]), to: &run)
        effects = BridgeMachine.Effects()
        machine.submit(run, now: .zero, into: &effects)
        let text = Self.text(effects)
        #expect(text.contains("bus-a-4") && !text.contains("bus-a-5") && text.contains("bus-a-6"))
        #expect(machine.publishedCount == 5 && machine.failedCount == 1 && effects.reports.count == 1)
    }

    /// Core mode subscribes to each pattern, then sends what waited, in order, without reply subjects.
    @Test func coreConnect() {
        var machine = BridgeMachine(configuration: Self.configuration(.core, subscriptions: ["switchyard.a.>", "switchyard.b.*"]))
        _ = machine.submit(OutboxTests.message(1), now: .zero)
        _ = machine.submit(OutboxTests.message(2), now: .zero)
        let effects = machine.connected(maxPayload: 1 << 20, inbox: Self.inbox, now: .zero)
        let text = Self.text(effects)
        #expect(text.hasPrefix("SUB switchyard.a.> 2\r\nSUB switchyard.b.* 3\r\nHPUB switchyard.demo.tick "))
        #expect(text.components(separatedBy: "HPUB switchyard.demo.tick ").count == 3)
        #expect(text.contains("bus-a-1") && text.contains("bus-a-2"))
        #expect(effects.becameReady)
        #expect(machine.publishedCount == 2)
        let message = NATSMessage(subject: "switchyard.a.x", sid: "2", payload: [])
        #expect(machine.received(message, now: .zero).deliveries == [BridgeMachine.Delivery(message: message, ackSubject: nil)])
        #expect(machine.received(NATSMessage(subject: "x", sid: "1"), now: .zero).deliveries.isEmpty)
    }

    /// An action larger than max_payload is reported and never sent, also when the limit shrinks on a reconnect.
    @Test func oversized() {
        var machine = BridgeMachine(configuration: Self.configuration(.core))
        // The medium message (its headers included) fits in 250 bytes, not in 100.
        _ = machine.connected(maxPayload: 250, inbox: Self.inbox, now: .zero)
        let big = OutboxTests.message(1, payload: .string(String(repeating: "x", count: 300)))
        let effects = machine.submit(big, now: .zero)
        #expect(effects.bytes.isEmpty)
        #expect(effects.reports == [.oversized(type: "demo/tick", id: 1, size: big.size, maxPayload: 250)])
        machine.disconnected()
        let medium = OutboxTests.message(2, payload: .string(String(repeating: "x", count: 100)))
        #expect((101...250).contains(medium.size))
        #expect(machine.submit(medium, now: .zero).reports.isEmpty)
        let reconnected = machine.connected(maxPayload: 100, inbox: Self.inbox, now: .zero)
        #expect(reconnected.reports == [.oversized(type: "demo/tick", id: 2, size: medium.size, maxPayload: 100)])
        #expect(!Self.text(reconnected).contains("HPUB"))
        #expect(machine.failedCount == 2)
    }

    /// JetStream mode checks the stream and consumer before it sends or pulls anything.
    @Test func jetStreamSetup() {
        var machine = BridgeMachine(configuration: Self.configuration(.jetstream))
        _ = machine.submit(OutboxTests.message(1), now: .zero)
        let connect = machine.connected(maxPayload: 1 << 20, inbox: Self.inbox, now: .zero)
        #expect(Self.text(connect) == "SUB _INBOX.t.* 1\r\nPUB $JS.API.STREAM.INFO.SWITCHYARD _INBOX.t.r1 0\r\n\r\n")
        #expect(!machine.isReady)
        #expect(machine.received(Self.reply("r9", "{}"), now: .zero).bytes.isEmpty)
        let consumer = machine.received(Self.reply("r1", #"{"config":{"subjects":["switchyard.>"]}}"#), now: .zero)
        #expect(Self.text(consumer) == "PUB $JS.API.CONSUMER.INFO.SWITCHYARD.bus-b _INBOX.t.r2 0\r\n\r\n")
        let ready = machine.received(Self.reply("r2", #"{"config":{"filter_subject":"switchyard.demo.>"}}"#), now: .zero)
        #expect(ready.becameReady)
        let text = Self.text(ready)
        #expect(text.hasPrefix("HPUB switchyard.demo.tick _INBOX.t.1 "))
        #expect(text.contains(#"PUB $JS.API.CONSUMER.MSG.NEXT.SWITCHYARD.bus-b _INBOX.t.f1 "#))
        #expect(text.hasSuffix(#"{"batch":10,"expires":5000000000}"# + "\r\n"))
    }

    /// A setup that gets no reply, or a consumer deleted under the bridge, closes the connection with the reason.
    @Test func setupFailures() {
        var machine = BridgeMachine(configuration: Self.configuration(.jetstream))
        _ = machine.connected(maxPayload: 1 << 20, inbox: Self.inbox, now: .zero)
        #expect(machine.tick(now: .seconds(4)).close == nil)
        let late = machine.tick(now: .seconds(5))
        #expect(late.close == "the JetStream API did not answer within 5.0 seconds")
        var ready = Self.readyJetStream()
        let deleted = ready.received(Self.reply("f1", status: 409, description: "Consumer Deleted"), now: .zero)
        #expect(deleted.close == "the consumer was deleted")
        var off = BridgeMachine(configuration: Self.configuration(.jetstream))
        _ = off.connected(maxPayload: 1 << 20, inbox: Self.inbox, now: .zero)
        let noJetStream = off.received(Self.reply("r1", status: 503), now: .zero)
        #expect(noJetStream.close == "JetStream is not enabled on the server (no responders for its API; start nats-server with -js)")
    }

    /// Publishes wait for JetStream's acknowledgement within the window; refusals are reported, 503 errors and no responders retried.
    @Test func publishAcknowledgements() {
        var machine = Self.readyJetStream(window: 1)
        #expect(Self.text(machine.submit(OutboxTests.message(1), now: .zero)).hasPrefix("HPUB switchyard.demo.tick _INBOX.t.1 "))
        #expect(machine.submit(OutboxTests.message(2), now: .zero).bytes.isEmpty)
        let acknowledged = machine.received(Self.reply("1", #"{"stream":"SWITCHYARD","seq":1}"#), now: .zero)
        #expect(Self.text(acknowledged).hasPrefix("HPUB switchyard.demo.tick _INBOX.t.2 "))
        let twice = machine.received(Self.reply("1", #"{"stream":"SWITCHYARD","seq":1,"duplicate":true}"#), now: .zero)
        #expect(twice.bytes.isEmpty)
        #expect(machine.publishedCount == 1)
        let busy = machine.received(Self.reply("2", #"{"error":{"code":503,"err_code":10008,"description":"JetStream system temporarily unavailable"}}"#), now: .zero)
        #expect(busy.bytes.isEmpty && busy.reports.isEmpty)
        #expect(Self.text(machine.tick(now: .seconds(5))).hasPrefix("HPUB switchyard.demo.tick _INBOX.t.2 "))
        let refused = machine.received(Self.reply("2", #"{"error":{"code":400,"err_code":10077,"description":"maximum messages exceeded"}}"#), now: .seconds(5))
        #expect(refused.reports == [.rejected(type: "demo/tick", id: 2, reason: "maximum messages exceeded (error 10077)")])
        _ = machine.submit(OutboxTests.message(3), now: .seconds(6))
        let nobody = machine.received(Self.reply("3", status: 503), now: .seconds(6))
        #expect(nobody.bytes.isEmpty && nobody.reports.count == 1)
        #expect(machine.received(Self.reply("3", status: 503), now: .seconds(6)).reports.isEmpty)
        #expect(Self.text(machine.tick(now: .seconds(12))).hasPrefix("HPUB switchyard.demo.tick _INBOX.t.3 "))
        _ = machine.received(Self.reply("3", #"{"stream":"SWITCHYARD","seq":2}"#), now: .seconds(12))
        #expect(machine.failedCount == 1)
        #expect(machine.publishedCount == 2)
        #expect(machine.heldCount == 0)
    }

    /// A full stream under `discard: new` answers 503 with error 10077: the first refusal of an
    /// episode is reported, none is settled or counted as failed, each is retried, and a stored
    /// publish ends the episode so the next refusal is reported again.
    @Test func fullStreamRefusalsAreReportedOncePerEpisode() {
        let full = #"{"error":{"code":503,"err_code":10077,"description":"maximum messages exceeded"},"stream":"SWITCHYARD","seq":0}"#
        var machine = Self.readyJetStream(window: 4)
        _ = machine.submit(OutboxTests.message(1), now: .zero)
        _ = machine.submit(OutboxTests.message(2), now: .zero)
        let first = machine.received(Self.reply("1", full), now: .zero)
        #expect(first.reports == [.refused(id: 1, reason: "maximum messages exceeded (error 10077)")] && first.settled.isEmpty)
        let second = machine.received(Self.reply("2", full), now: .zero)
        #expect(second.reports.isEmpty && second.settled.isEmpty)
        #expect(machine.failedCount == 0 && machine.heldCount == 2)
        #expect(Self.text(machine.tick(now: .seconds(5))).contains("_INBOX.t.1 "))
        #expect(machine.received(Self.reply("1", full), now: .seconds(5)).reports.isEmpty)
        let stored = machine.received(Self.reply("2", #"{"stream":"SWITCHYARD","seq":1}"#), now: .seconds(5))
        #expect(stored.settled == [2] && stored.reports == [.warning("JetStream stores publishes again")])
        #expect(machine.received(Self.reply("1", full), now: .seconds(5)).reports == [.refused(id: 1, reason: "maximum messages exceeded (error 10077)")])
        #expect(machine.publishedCount == 1 && machine.failedCount == 0 && machine.heldCount == 1)
    }

    /// An id is settled once: a repeated acknowledgement or refusal, or one for an id never published, settles nothing more.
    @Test func settlesEachIdOnce() {
        var machine = Self.readyJetStream(window: 4)
        _ = machine.submit(OutboxTests.message(1), now: .zero)
        _ = machine.submit(OutboxTests.message(2), now: .zero)
        #expect(machine.received(Self.reply("1", #"{"stream":"SWITCHYARD","seq":1}"#), now: .zero).settled == [1])
        let again = machine.received(Self.reply("1", #"{"stream":"SWITCHYARD","seq":1,"duplicate":true}"#), now: .zero)
        #expect(again.settled.isEmpty && again.reports.isEmpty)
        let refusedLate = machine.received(Self.reply("1", #"{"error":{"code":400,"err_code":10077,"description":"maximum messages exceeded"}}"#), now: .zero)
        #expect(refusedLate.settled.isEmpty && refusedLate.reports.isEmpty)
        #expect(machine.received(Self.reply("7", #"{"stream":"SWITCHYARD","seq":7}"#), now: .zero).settled.isEmpty)
        let refused = machine.received(Self.reply("2", #"{"error":{"code":400,"err_code":10077,"description":"maximum messages exceeded"}}"#), now: .zero)
        #expect(refused.settled == [2])
        #expect(machine.received(Self.reply("2", #"{"stream":"SWITCHYARD","seq":2}"#), now: .zero).settled.isEmpty)
        #expect(machine.publishedCount == 1 && machine.failedCount == 1 && machine.heldCount == 0)
    }

    /// JetStream calling a first send a duplicate means the id was used before: reported; after a resend it is expected.
    @Test func duplicateIDs() {
        var machine = Self.readyJetStream(window: 4)
        _ = machine.submit(OutboxTests.message(1), now: .zero)
        _ = machine.submit(OutboxTests.message(2), now: .zero)
        let reused = machine.received(Self.reply("1", #"{"stream":"SWITCHYARD","seq":9,"duplicate":true}"#), now: .zero)
        #expect(reused.reports == [.duplicateID(type: "demo/tick", id: 1)])
        _ = machine.tick(now: .seconds(5))
        let resent = machine.received(Self.reply("2", #"{"stream":"SWITCHYARD","seq":10,"duplicate":true}"#), now: .seconds(5))
        #expect(resent.reports.isEmpty)
        #expect(machine.publishedCount == 1 && machine.failedCount == 1)
    }

    /// Deliveries carry their acknowledgement subject; the next pull waits until they are dispatched and the request ended.
    @Test func pullsAfterDispatching() {
        var machine = Self.readyJetStream()
        let first = machine.received(Self.delivery("switchyard.demo.x", sequence: 1), now: .zero)
        #expect(first.deliveries.map(\.ackSubject) == ["$JS.ACK.SWITCHYARD.bus-b.1.1.1.0.0"])
        #expect(machine.received(Self.reply("f1", status: 408, description: "Request Timeout"), now: .zero).bytes.isEmpty)
        let next = machine.finishedDispatching(now: .seconds(1))
        #expect(Self.text(next).hasPrefix("PUB $JS.API.CONSUMER.MSG.NEXT.SWITCHYARD.bus-b _INBOX.t.f2 "))
        #expect(machine.finishedDispatching(now: .seconds(1)).bytes.isEmpty)
        #expect(machine.tick(now: .seconds(6)).bytes.isEmpty)
        #expect(Self.text(machine.tick(now: .seconds(7))).contains("_INBOX.t.f3"))
        machine.stop()
        #expect(machine.tick(now: .seconds(20)).bytes.isEmpty)
    }

    /// With several subscriptions the consumer is unfiltered and deliveries outside them are acknowledged unseen.
    @Test func filtersLocally() {
        var machine = Self.readyJetStream(subscriptions: ["switchyard.a.>", "switchyard.b.>"])
        let outside = machine.received(Self.delivery("switchyard.c.x", sequence: 1), now: .zero)
        #expect(outside.deliveries.isEmpty)
        #expect(Self.text(outside) == "PUB $JS.ACK.SWITCHYARD.bus-b.1.1.1.0.0 0\r\n\r\n")
        #expect(machine.received(Self.delivery("switchyard.b.x", sequence: 2), now: .zero).deliveries.count == 1)
    }

    /// A lost connection holds everything and sends unacknowledged actions again after the next setup.
    @Test func resendsAfterReconnect() {
        var machine = Self.readyJetStream()
        _ = machine.submit(OutboxTests.message(1), now: .zero)
        _ = machine.submit(OutboxTests.message(2), now: .zero)
        machine.disconnected()
        #expect(!machine.isReady)
        #expect(machine.submit(OutboxTests.message(3), now: .zero).bytes.isEmpty)
        #expect(machine.heldCount == 3)
        _ = machine.connected(maxPayload: 1 << 20, inbox: "_INBOX.u", now: .zero)
        _ = machine.received(NATSMessage(subject: "_INBOX.u.r3", sid: "1", payload: Array("{}".utf8)), now: .zero)
        let ready = machine.received(NATSMessage(subject: "_INBOX.u.r4", sid: "1", payload: Array("{}".utf8)), now: .zero)
        let text = Self.text(ready)
        #expect(text.contains("_INBOX.u.1 ") && text.contains("_INBOX.u.2 ") && !text.contains("_INBOX.u.3 "))
    }

    /// A congested connection holds actions until it drained.
    @Test func congestion() {
        var machine = BridgeMachine(configuration: Self.configuration(.core))
        _ = machine.connected(maxPayload: 1 << 20, inbox: Self.inbox, now: .zero)
        machine.congested()
        #expect(machine.submit(OutboxTests.message(1), now: .zero).bytes.isEmpty)
        #expect(Self.text(machine.drained(now: .zero)).contains("bus-a-1"))
    }

    /// A full buffer reports overflow once per episode and counts every drop.
    @Test func overflow() {
        var machine = BridgeMachine(configuration: Self.configuration(.core, capacity: 2))
        _ = machine.submit(OutboxTests.message(1), now: .zero)
        _ = machine.submit(OutboxTests.message(2), now: .zero)
        #expect(machine.submit(OutboxTests.message(3), now: .zero).reports == [.overflow(dropped: 1)])
        #expect(machine.submit(OutboxTests.message(4), now: .zero).reports.isEmpty)
        #expect(machine.droppedCount == 2)
    }
}
