import SwitchyardBus
import Testing

@testable import NATSPlugin

/// The outgoing buffer: waiting, windowed sends, acknowledgements, retries and overflow.
struct OutboxTests {
    static func message(_ id: UInt64, payload: JSON = .null) -> OutgoingMessage {
        OutgoingMessage(action: BusAction(type: "demo/tick", payload: payload, id: id, time: .init(timeIntervalSince1970: 0), source: "tick", cause: nil),
                        origin: "bus-a", mapping: .standard)
    }

    private func ids(_ messages: [OutgoingMessage]) -> [UInt64] { messages.map(\.actionID) }

    /// A closed outbox holds actions; opening sends them in order; an open one sends at once.
    @Test func holdsWhileClosed() {
        var outbox = Outbox(capacity: 10, overflow: .dropOldest, window: nil)
        #expect(outbox.submit(Self.message(1), now: .zero).send.isEmpty)
        #expect(outbox.submit(Self.message(2), now: .zero).send.isEmpty)
        #expect(ids(outbox.open(now: .zero)) == [1, 2])
        #expect(ids(outbox.submit(Self.message(3), now: .zero).send) == [3])
        #expect(outbox.count == 0)
        outbox.pause()
        #expect(outbox.submit(Self.message(4), now: .zero).send.isEmpty)
        #expect(outbox.waitingCount == 1)
    }

    /// With a window, at most that many are unacknowledged; each acknowledgement lets the next one go.
    @Test func window() {
        var outbox = Outbox(capacity: 10, overflow: .dropOldest, window: 2)
        _ = outbox.open(now: .zero)
        #expect(ids(outbox.submit(Self.message(1), now: .zero).send) == [1])
        #expect(ids(outbox.submit(Self.message(2), now: .zero).send) == [2])
        #expect(outbox.submit(Self.message(3), now: .zero).send.isEmpty)
        #expect(outbox.unacknowledgedCount == 2)
        #expect(ids(outbox.acknowledge(1, now: .zero)) == [3])
        #expect(outbox.acknowledge(1, now: .zero).isEmpty)
        #expect(outbox.acknowledge(99, now: .zero).isEmpty)
        #expect(outbox.count == 2)
    }

    /// A lost connection puts unacknowledged actions back in front, in order, to be sent again.
    @Test func requeuesOnClose() {
        var outbox = Outbox(capacity: 10, overflow: .dropOldest, window: 2)
        _ = outbox.open(now: .zero)
        for id in 1...4 { _ = outbox.submit(Self.message(UInt64(id)), now: .zero) }
        outbox.close()
        #expect(outbox.count == 4)
        #expect(outbox.unacknowledgedCount == 0)
        #expect(ids(outbox.open(now: .seconds(1))) == [1, 2])
        #expect(ids(outbox.acknowledge(2, now: .seconds(1))) == [3])
        #expect(ids(outbox.acknowledge(1, now: .seconds(1))) == [4])
    }

    /// An acknowledgement that does not come within the timeout sends the action again, once per timeout.
    @Test func resendsExpired() {
        var outbox = Outbox(capacity: 10, overflow: .dropOldest, window: 4)
        _ = outbox.open(now: .zero)
        _ = outbox.submit(Self.message(1), now: .zero)
        _ = outbox.submit(Self.message(2), now: .seconds(3))
        #expect(outbox.expired(now: .seconds(4), timeout: .seconds(5)).isEmpty)
        #expect(ids(outbox.expired(now: .seconds(5), timeout: .seconds(5))) == [1])
        #expect(ids(outbox.expired(now: .seconds(8), timeout: .seconds(5))) == [2])
        #expect(outbox.expired(now: .seconds(9), timeout: .seconds(5)).isEmpty)
        #expect(ids(outbox.expired(now: .seconds(10), timeout: .seconds(5))) == [1])
        outbox.pause()
        #expect(outbox.expired(now: .seconds(60), timeout: .seconds(5)).isEmpty)
    }

    /// A refused action leaves the window and is returned for reporting.
    @Test func rejects() {
        var outbox = Outbox(capacity: 10, overflow: .dropOldest, window: 1)
        _ = outbox.open(now: .zero)
        _ = outbox.submit(Self.message(1), now: .zero)
        _ = outbox.submit(Self.message(2), now: .zero)
        let (rejected, send) = outbox.reject(1, now: .zero)
        #expect(rejected?.actionID == 1)
        #expect(ids(send) == [2])
        #expect(outbox.reject(1, now: .zero).rejected == nil)
    }

    /// Full with drop-oldest: the oldest waiting action goes; the episode is reported once until the outbox empties.
    @Test func dropsOldest() {
        var outbox = Outbox(capacity: 3, overflow: .dropOldest, window: nil)
        for id in 1...3 { _ = outbox.submit(Self.message(UInt64(id)), now: .zero) }
        let first = outbox.submit(Self.message(4), now: .zero)
        #expect(first.dropped?.actionID == 1)
        #expect(first.startsOverflow)
        let second = outbox.submit(Self.message(5), now: .zero)
        #expect(second.dropped?.actionID == 2)
        #expect(!second.startsOverflow)
        #expect(outbox.droppedCount == 2)
        #expect(ids(outbox.open(now: .zero)) == [3, 4, 5])
        outbox.pause()
        for id in 6...8 { _ = outbox.submit(Self.message(UInt64(id)), now: .zero) }
        #expect(outbox.submit(Self.message(9), now: .zero).startsOverflow)
    }

    /// Full with drop-newest: the action that does not fit goes; unacknowledged ones are never dropped.
    @Test func dropsNewest() {
        var outbox = Outbox(capacity: 2, overflow: .dropNewest, window: 2)
        _ = outbox.open(now: .zero)
        _ = outbox.submit(Self.message(1), now: .zero)
        _ = outbox.submit(Self.message(2), now: .zero)
        #expect(outbox.submit(Self.message(3), now: .zero).dropped?.actionID == 3)
        var oldest = Outbox(capacity: 2, overflow: .dropOldest, window: 2)
        _ = oldest.open(now: .zero)
        _ = oldest.submit(Self.message(1), now: .zero)
        _ = oldest.submit(Self.message(2), now: .zero)
        #expect(oldest.submit(Self.message(3), now: .zero).dropped?.actionID == 3)
        #expect(oldest.unacknowledgedCount == 2)
    }

    /// Each outgoing message carries its subject, origin, source and a message id made of the origin and the action id.
    @Test func encodesMessage() throws {
        let message = Self.message(42, payload: ["lat": 1.5])
        #expect(message.subject == "switchyard.demo.tick")
        let headers = try NATSHeaders(parsing: message.headers[...])
        #expect(headers["Nats-Msg-Id"] == "bus-a-42")
        #expect(headers["Switchyard-Origin"] == "bus-a")
        #expect(headers["Switchyard-Source"] == "tick")
        #expect(String(decoding: message.payload, as: UTF8.self) == #"{"lat":1.5}"#)
        var bytes: [UInt8] = []
        message.encode(replyTo: "_INBOX.x.42", into: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self).hasPrefix("HPUB switchyard.demo.tick _INBOX.x.42 \(message.headers.count) \(message.size)\r\n"))
    }
}
