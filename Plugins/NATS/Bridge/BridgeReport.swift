/// Something the bridge's state machine wants people to know, turned into actions and log
/// lines by the bridge.
enum BridgeReport: Sendable, Hashable {
    /// An action larger than the server's `max_payload`: never sent.
    case oversized(type: String, id: UInt64, size: Int, maxPayload: Int)
    /// The server refused to store an action.
    case rejected(type: String, id: UInt64, reason: String)
    /// The stream refuses to store publishes (full under `discard: new`): the first refusal
    /// of an episode; the actions are kept and retried.
    case refused(id: UInt64, reason: String)
    /// The server dropped an action sent once as a duplicate: its message id was used before.
    case duplicateID(type: String, id: UInt64)
    /// The outgoing buffer overflowed (the first drop since it last emptied); `dropped` counts
    /// every drop so far.
    case overflow(dropped: Int)
    /// A setting and the server disagree, but the bridge carries on.
    case warning(String)
}
