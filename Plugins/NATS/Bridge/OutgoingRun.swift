import SwitchyardBus

/// Local actions encoded for publishing together, in order.
///
/// In core mode the run holds them as the `HPUB` operations to write, one after the other:
/// while nothing waits in the outbox, the machine hands these bytes to the connection as they
/// are, so an action costs no arrays of its own and no copy into the machine's output. When
/// the run cannot go out that way (disconnected, congested, a message above `max_payload`),
/// ``messages`` gives each action as the ``OutgoingMessage`` the outbox keeps. In JetStream
/// mode, where every publish waits for its acknowledgement, the run holds the messages.
struct OutgoingRun: Sendable {
    /// Where one action's parts are in the operations' bytes.
    private struct Part: Sendable {
        var actionID: UInt64
        var type: String
        var subject: String
        var headers: Range<Int>
        var payload: Range<Int>
    }

    /// What the run holds, one mode or the other for its whole life.
    private enum Contents: Sendable {
        /// Core mode: the `HPUB` operations and where each action's parts are in them.
        case operations(bytes: [UInt8], parts: [Part])
        /// JetStream mode: the messages the outbox keeps.
        case messages([OutgoingMessage])
    }

    private var contents: Contents
    /// The size the server counts against `max_payload` (headers and payload) of the largest message.
    private(set) var largest = 0

    /// An empty run; `holdsOperations` for core mode.
    init(holdsOperations: Bool) {
        contents = holdsOperations ? .operations(bytes: [], parts: []) : .messages([])
    }

    /// The `HPUB` operations, in order, when the run holds them (core mode); `nil` otherwise.
    var operations: [UInt8]? {
        guard case .operations(let bytes, _) = contents else { return nil }
        return bytes
    }

    /// The `HPUB` operations, in order; empty in JetStream mode.
    var bytes: [UInt8] { operations ?? [] }

    /// The number of actions in the run.
    var count: Int {
        switch contents {
        case .operations(_, let parts): parts.count
        case .messages(let held): held.count
        }
    }

    /// Whether the run holds no action.
    var isEmpty: Bool { count == 0 }

    /// Adds an action already encoded: its id, type, subject, header block and payload.
    mutating func append(actionID: UInt64, type: String, subject: String, headers: [UInt8], payload: [UInt8]) {
        largest = max(largest, headers.count + payload.count)
        // The contents are taken out while they grow, so their buffers stay uniquely referenced.
        switch take() {
        case .messages(var held):
            held.append(OutgoingMessage(actionID: actionID, type: type, subject: subject, headers: headers, payload: payload, isResend: false))
            contents = .messages(held)
        case .operations(var bytes, var parts):
            NATSCommand.publish(subject: subject, headers: headers, payload: payload, into: &bytes)
            // The operation ends with the header block, the payload and a line break.
            let payloadEnd = bytes.count - 2
            let payloadStart = payloadEnd - payload.count
            parts.append(Part(actionID: actionID, type: type, subject: subject,
                              headers: (payloadStart - headers.count)..<payloadStart, payload: payloadStart..<payloadEnd))
            contents = .operations(bytes: bytes, parts: parts)
        }
    }

    /// Each action as a message, in order.
    var messages: [OutgoingMessage] {
        switch contents {
        case .messages(let held):
            held
        case .operations(let bytes, let parts):
            parts.map { part in
                OutgoingMessage(actionID: part.actionID, type: part.type, subject: part.subject, headers: Array(bytes[part.headers]),
                                payload: Array(bytes[part.payload]), isResend: false)
            }
        }
    }

    /// Empties the run, keeping its storage and its mode for the next.
    mutating func removeAll() {
        switch take() {
        case .messages(var held):
            held.removeAll(keepingCapacity: true)
            contents = .messages(held)
        case .operations(var bytes, var parts):
            bytes.removeAll(keepingCapacity: true)
            parts.removeAll(keepingCapacity: true)
            contents = .operations(bytes: bytes, parts: parts)
        }
        largest = 0
    }

    /// The contents, leaving an empty placeholder behind until they are put back.
    private mutating func take() -> Contents {
        defer { contents = .messages([]) }
        return contents
    }
}
