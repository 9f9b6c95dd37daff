import Switchyard

/// Local actions encoded for publishing together, in order.
///
/// In core mode the run holds them as the `HPUB` operations to write, one after the other:
/// while nothing waits in the outbox, the machine hands these bytes to the connection as they
/// are, so an action costs no arrays of its own and no copy into the machine's output. When
/// the run cannot go out that way (disconnected, congested, a message above `max_payload`),
/// ``messages`` gives each action as the ``OutgoingMessage`` the outbox keeps. In JetStream
/// mode, where every publish waits for its acknowledgement, the run holds the messages.
struct OutgoingRun: Sendable {
    /// Where one action's parts are in ``bytes``.
    private struct Part: Sendable {
        var actionID: UInt64
        var type: String
        var subject: String
        var headers: Range<Int>
        var payload: Range<Int>
    }

    /// Whether the run holds `HPUB` operations (core mode) rather than messages.
    let holdsOperations: Bool
    /// The `HPUB` operations, in order; empty unless ``holdsOperations``.
    private(set) var bytes: [UInt8] = []
    private var parts: [Part] = []
    private var held: [OutgoingMessage] = []
    /// The size the server counts against `max_payload` (headers and payload) of the largest message.
    private(set) var largest = 0

    /// An empty run; `holdsOperations` for core mode.
    init(holdsOperations: Bool) {
        self.holdsOperations = holdsOperations
    }

    /// The number of actions in the run.
    var count: Int { holdsOperations ? parts.count : held.count }

    /// Whether the run holds no action.
    var isEmpty: Bool { count == 0 }

    /// Adds an action already encoded: its id, type, subject, header block and payload.
    mutating func append(actionID: UInt64, type: String, subject: String, headers: [UInt8], payload: [UInt8]) {
        largest = max(largest, headers.count + payload.count)
        guard holdsOperations else {
            held.append(OutgoingMessage(actionID: actionID, type: type, subject: subject, headers: headers, payload: payload, isResend: false))
            return
        }
        NATSCommand.publish(subject: subject, headers: headers, payload: payload, into: &bytes)
        // The operation ends with the header block, the payload and a line break.
        let payloadEnd = bytes.count - 2
        let payloadStart = payloadEnd - payload.count
        parts.append(Part(actionID: actionID, type: type, subject: subject,
                          headers: (payloadStart - headers.count)..<payloadStart, payload: payloadStart..<payloadEnd))
    }

    /// Each action as a message, in order.
    var messages: [OutgoingMessage] {
        guard holdsOperations else { return held }
        return parts.map { part in
            OutgoingMessage(actionID: part.actionID, type: part.type, subject: part.subject, headers: Array(bytes[part.headers]),
                            payload: Array(bytes[part.payload]), isResend: false)
        }
    }

    /// Empties the run, keeping its storage for the next.
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        parts.removeAll(keepingCapacity: true)
        held.removeAll(keepingCapacity: true)
        largest = 0
    }
}
