import FoundationEssentials
import SwitchyardBus

/// A local action on its way to NATS, encoded once: subject, header block and payload.
///
/// Headers carry `Nats-Msg-Id: <origin>-<id>` (JetStream drops a second publish with the
/// same id within the stream's duplicate window, so a resend after a reconnect never
/// stores an action twice), `Switchyard-Origin` (the bus it came from, so no bus takes its
/// own actions back), `Switchyard-Time` (when that bus stamped it, as its journal writes it:
/// a receiver measures the transport's lag) and `Switchyard-Source` (the plugin that emitted
/// it). The body is the action's payload as JSON, byte for byte.
struct OutgoingMessage: Sendable, Hashable {
    /// The header names the bridge writes and reads.
    enum Header {
        static let messageID = "Nats-Msg-Id"
        static let origin = "Switchyard-Origin"
        static let time = "Switchyard-Time"
        static let source = "Switchyard-Source"
    }

    /// The action's id on this bus.
    var actionID: UInt64
    /// The action's type.
    var type: String
    /// The subject it is published to.
    var subject: String
    /// The encoded header block.
    var headers: [UInt8]
    /// The payload as JSON.
    var payload: [UInt8]
    /// Whether it was sent before (the connection dropped or the acknowledgement was late),
    /// so that JetStream calling it a duplicate is expected.
    var isResend = false

    /// The bytes the server counts against its `max_payload`.
    var size: Int { headers.count + payload.count }

    /// Encodes `action` for publishing from the bus `origin`.
    init(action: BusAction, origin: String, mapping: SubjectMapping) {
        self.init(action: action, origin: origin, subject: mapping.subject(for: action.type))
    }

    /// Encodes `action` for publishing from the bus `origin` to `subject`, already mapped.
    init(action: BusAction, origin: String, subject: String) {
        actionID = action.id
        type = action.type
        self.subject = subject
        headers = Self.headerBlock(id: action.id, origin: origin, time: action.time, source: action.source)
        var body: [UInt8] = []
        body.reserveCapacity(128)
        action.payload.serialize(into: &body)
        payload = body
    }

    /// The header block ``NATSHeaders/encoded`` writes for these four fields, built as bytes
    /// directly: it is made once per action, and the string interpolation it replaces was the
    /// publishing side's largest cost after the payload's JSON.
    static func headerBlock(id: UInt64, origin: String, time: Date, source: String) -> [UInt8] {
        var block: [UInt8] = []
        block.reserveCapacity(120 + 2 * origin.utf8.count + source.utf8.count)
        block.append(contentsOf: "NATS/1.0\r\n\(Header.messageID): ".utf8)
        NATSHeaders.appendSingleLine(origin, to: &block)
        block.append(UInt8(ascii: "-"))
        LineBytes.appendDecimal(id, to: &block)
        block.append(contentsOf: "\r\n\(Header.origin): ".utf8)
        NATSHeaders.appendSingleLine(origin, to: &block)
        block.append(contentsOf: "\r\n\(Header.time): ".utf8)
        Timestamp.appendISO8601(time, to: &block)
        block.append(contentsOf: "\r\n\(Header.source): ".utf8)
        NATSHeaders.appendSingleLine(source, to: &block)
        block.append(contentsOf: "\r\n\r\n".utf8)
        return block
    }

    /// The `HPUB` operation, with `replyTo` when a JetStream acknowledgement is wanted.
    func encode(replyTo: String?, into output: inout [UInt8]) {
        NATSCommand.publish(subject: subject, replyTo: replyTo, headers: headers, payload: payload, into: &output)
    }

    /// The `HPUB` operation with the reply subject `<replyPrefix><actionID>` (a JetStream
    /// acknowledgement inbox), built straight into `output`: the same bytes as
    /// ``encode(replyTo:into:)`` without making the reply subject a string first.
    func encode(replyPrefix: [UInt8], into output: inout [UInt8]) {
        NATSCommand.publish(subject: subject, replyPrefix: replyPrefix, number: actionID, headers: headers, payload: payload, into: &output)
    }
}

extension OutgoingMessage {
    /// A message from parts already encoded.
    init(actionID: UInt64, type: String, subject: String, headers: [UInt8], payload: [UInt8], isResend: Bool) {
        self.actionID = actionID
        self.type = type
        self.subject = subject
        self.headers = headers
        self.payload = payload
        self.isResend = isResend
    }
}
