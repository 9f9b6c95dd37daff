import FoundationEssentials
import SwitchyardBus

/// Encodes the actions the bridge publishes (from the journal, live, and in core mode) with as
/// little work per action as the message allows: the header block's fixed parts (the `NATS/1.0` line, the
/// `Nats-Msg-Id: <origin>-` prefix, the `Switchyard-Origin` line) are built once, and each
/// action type's subject and each source's header line are remembered, so an action costs
/// its id's digits, its time (the journal's text as read, or the last one repeated) and its
/// payload.
///
/// The bytes are exactly those of ``OutgoingMessage/init(action:origin:subject:)`` (the
/// headers of ``NATSHeaders/encoded``), which a test checks.
struct ForwardEncoder: Sendable {
    /// `NATS/1.0\r\nNats-Msg-Id: <origin>-`.
    private let idPrefix: [UInt8]
    /// `\r\nSwitchyard-Origin: <origin>\r\nSwitchyard-Time: `.
    private let originLine: [UInt8]
    /// `\r\nSwitchyard-Source: `.
    private static let sourcePrefix = Array("\r\n\(OutgoingMessage.Header.source): ".utf8)
    /// The last time written: a batch of actions shares one.
    private var times = TimestampText()
    private let mapping: SubjectMapping
    private var subjects: [String: String] = [:]
    private var sources: [String: [UInt8]] = [:]
    /// The last type and source encoded with their subject and header line: a stream of
    /// actions repeats them, and a comparison is cheaper than hashing the key for a lookup.
    private var lastSubject: (type: String, subject: String)?
    private var lastSource: (source: String, line: [UInt8])?
    /// The header block and payload of the action ``append(_:to:)`` is encoding, kept between
    /// actions so that encoding one into a run allocates nothing.
    private var headerScratch: [UInt8] = []
    private var payloadScratch: [UInt8] = []
    /// The most subjects and sources remembered: enough for any real bus, bounded for one
    /// that makes up types.
    private static let cacheLimit = 4096

    /// An encoder for the bus `origin` publishing under `mapping`.
    init(origin: String, mapping: SubjectMapping) {
        self.mapping = mapping
        var idPrefix = Array("NATS/1.0\r\n\(OutgoingMessage.Header.messageID): ".utf8)
        NATSHeaders.appendSingleLine(origin, to: &idPrefix)
        idPrefix.append(UInt8(ascii: "-"))
        self.idPrefix = idPrefix
        var originLine = Array("\r\n\(OutgoingMessage.Header.origin): ".utf8)
        NATSHeaders.appendSingleLine(origin, to: &originLine)
        originLine.append(contentsOf: "\r\n\(OutgoingMessage.Header.time): ".utf8)
        self.originLine = originLine
    }

    /// The message for `action`, marked as a resend when an earlier run may have sent it.
    mutating func message(_ action: BusAction, isResend: Bool) -> OutgoingMessage {
        var payload: [UInt8] = []
        // Room for a typical payload at once, instead of growing through 16, 32, 64 and 128.
        payload.reserveCapacity(256)
        action.payload.serialize(into: &payload)
        return message(id: action.id, type: action.type, time: .date(action.time), source: action.source, payload: payload, isResend: isResend)
    }

    /// The message for an action read from the journal, its payload the journaled text.
    mutating func message(_ action: JournaledAction, isResend: Bool) -> OutgoingMessage {
        message(id: action.id, type: action.type, time: .text(action.time), source: action.source, payload: action.payload, isResend: isResend)
    }

    /// Encodes `action` at the end of `run`: its header block and payload are built in
    /// buffers the encoder keeps, then written into the run once.
    mutating func append(_ action: BusAction, to run: inout OutgoingRun) {
        payloadScratch.removeAll(keepingCapacity: true)
        action.payload.serialize(into: &payloadScratch)
        // Taken out while the encoder's caches change, and put back for the next action.
        var headers = headerScratch
        headerScratch = []
        headers.removeAll(keepingCapacity: true)
        appendHeaders(id: action.id, time: .date(action.time), source: action.source, to: &headers)
        run.append(actionID: action.id, type: action.type, subject: subject(for: action.type), headers: headers, payload: payloadScratch)
        headerScratch = headers
    }

    /// An action's time: a date to write, or the journal's text of it.
    private enum Time {
        case date(Date)
        case text([UInt8])
    }

    private mutating func message(id: UInt64, type: String, time: Time, source: String, payload: [UInt8], isResend: Bool) -> OutgoingMessage {
        var headers: [UInt8] = []
        appendHeaders(id: id, time: time, source: source, to: &headers)
        return OutgoingMessage(actionID: id, type: type, subject: subject(for: type), headers: headers, payload: payload, isResend: isResend)
    }

    private mutating func appendHeaders(id: UInt64, time: Time, source: String, to headers: inout [UInt8]) {
        let source = sourceLine(source)
        headers.reserveCapacity(idPrefix.count + 20 + originLine.count + 24 + Self.sourcePrefix.count + source.count)
        headers.append(contentsOf: idPrefix)
        LineBytes.appendDecimal(id, to: &headers)
        headers.append(contentsOf: originLine)
        switch time {
        case .date(let date): times.append(date, to: &headers)
        case .text(let text): headers.append(contentsOf: text)
        }
        headers.append(contentsOf: Self.sourcePrefix)
        headers.append(contentsOf: source)
    }

    private mutating func subject(for type: String) -> String {
        if let lastSubject, lastSubject.type == type { return lastSubject.subject }
        let subject: String
        if let known = subjects[type] {
            subject = known
        } else {
            subject = mapping.subject(for: type)
            if subjects.count < Self.cacheLimit { subjects[type] = subject }
        }
        lastSubject = (type, subject)
        return subject
    }

    /// `<source>\r\n\r\n`: the last field and the blank line ending the block.
    private mutating func sourceLine(_ source: String) -> [UInt8] {
        if let lastSource, lastSource.source == source { return lastSource.line }
        var line: [UInt8] = []
        if let known = sources[source] {
            line = known
        } else {
            NATSHeaders.appendSingleLine(source, to: &line)
            line.append(contentsOf: "\r\n\r\n".utf8)
            if sources.count < Self.cacheLimit { sources[source] = line }
        }
        lastSource = (source, line)
        return line
    }
}
