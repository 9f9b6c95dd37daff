import FoundationEssentials
import SwitchyardBus

/// Decides what a message from NATS becomes on this bus: an action with source
/// `nats:<origin>`, nothing (this bus's own action, or one already dispatched), or a
/// report of a message that is not an action.
struct InboundDecoder: Sendable {
    /// When the sending bus stamped a message's action (its `Switchyard-Time` header).
    enum SentTime: Sendable, Hashable {
        /// No header: an older bus, or a publisher that is not a bus.
        case absent
        case at(Date)
        /// A header that is not an ISO 8601 time: ignored (the action is taken), counted.
        case unreadable(String)
    }

    /// What a message becomes.
    enum Decision: Sendable, Hashable {
        /// An action to dispatch with `source`; `messageID` is remembered once dispatched;
        /// `sent` is when its origin stamped it, for the transport's lag.
        case action(type: String, payload: JSON, source: String, messageID: String?, sent: SentTime = .absent)
        /// This bus published it: dropped, so no action loops.
        case ownOrigin
        /// A message id already dispatched: dropped.
        case duplicate
        /// Not an action; the reason says why.
        case invalid(reason: String)
    }

    /// The origin of messages without a `Switchyard-Origin` header (published by something
    /// other than a bus).
    static let unknownOrigin = "unknown"

    /// This bus's origin name.
    let origin: String
    /// The subject mapping.
    let mapping: SubjectMapping
    private(set) var recent = RecentMessageIDs()
    /// Subjects already mapped to their types: a fleet uses few of them, over and over.
    private var types: [String: String] = [:]
    /// The subject of the last message mapped, and its type.
    private var lastSubject = ""
    private var lastType = ""
    /// The origin of the last action, and its source `nats:<origin>`: made once per sender,
    /// not once per message.
    private var lastOrigin = ""
    private var lastSource = ""
    private static let typeCacheSize = 4096

    /// Creates a decoder for the bus `origin`.
    init(origin: String, mapping: SubjectMapping) {
        self.origin = origin
        self.mapping = mapping
    }

    /// Decides, remembering the message id of an action as seen.
    mutating func decide(_ message: NATSMessage) -> Decision {
        if let problem = message.headerProblem { return .invalid(reason: problem.description) }
        let senderOrigin = message.headers?[OutgoingMessage.Header.origin]
        if senderOrigin == origin { return .ownOrigin }
        let messageID = message.headers?[OutgoingMessage.Header.messageID]
        // Remembered at once, with one lookup, and forgotten again if the message is refused.
        if let messageID, !recent.insert(messageID) { return .duplicate }
        switch typeAndPayload(of: message) {
        case .success(let (type, payload)):
            let sender = senderOrigin ?? Self.unknownOrigin
            if sender != lastOrigin || lastSource.isEmpty {
                lastOrigin = sender
                lastSource = "nats:" + sender
            }
            return .action(type: type, payload: payload, source: lastSource, messageID: messageID, sent: Self.sentTime(of: message))
        case .failure(let refusal):
            if let messageID { recent.remove(messageID) }
            return .invalid(reason: refusal.text)
        }
    }

    /// The message's `Switchyard-Time`.
    private static func sentTime(of message: NATSMessage) -> SentTime {
        guard let text = message.headers?[OutgoingMessage.Header.time] else { return .absent }
        guard let time = Timestamp.parseISO8601(text) else { return .unreadable(String(text.prefix(80))) }
        return .at(time)
    }

    /// A refusal's reason, as an error so it can travel in a `Result`.
    private struct Refusal: Error {
        var text: String
    }

    /// The action type the subject maps to and the payload parsed; the reason when either fails.
    private mutating func typeAndPayload(of message: NATSMessage) -> Result<(String, JSON), Refusal> {
        let type: String
        if message.subject == lastSubject {
            // A stream repeats its subject, and the parser hands over the same string again.
            type = lastType
        } else if let known = types[message.subject] {
            type = known
        } else {
            do {
                type = try mapping.actionType(for: message.subject)
            } catch {
                return .failure(Refusal(text: error.description))
            }
            if types.count >= Self.typeCacheSize { types.removeAll(keepingCapacity: true) }
            types[message.subject] = type
        }
        lastSubject = message.subject
        lastType = type
        var payload = JSON.null
        if !message.payload.isEmpty {
            do {
                payload = try JSON(parsingInput: message.payload, repeatedNames: .lastWins)
            } catch {
                return .failure(Refusal(text: "the payload is not JSON: \(error.description)"))
            }
        }
        return .success((type, payload))
    }

    /// Forgets a message id whose action was not dispatched after all, so a redelivery is
    /// taken.
    mutating func forget(_ messageID: String) {
        recent.remove(messageID)
    }
}
