/// A journaled action as its line holds it: the id, type and source read, the payload left
/// as the JSON text the journal wrote (``JSON/serialize(into:)``'s bytes for the payload), so
/// a reader that passes the payload on (the NATS bridge publishing from the journal) neither
/// parses it nor writes it again.
public struct JournaledAction: Sendable, Hashable {
    /// The action's id, its sequence number in the journal.
    public var id: UInt64
    /// The action's type.
    public var type: String
    /// The plugin (or client) that emitted it.
    public var source: String
    /// The payload as JSON text.
    public var payload: [UInt8]
    /// The time the bus stamped it, as the journal wrote it (ISO 8601 in UTC, to the
    /// millisecond), without quotes; empty when not read.
    public var time: [UInt8]

    /// An action as journaled.
    public init(id: UInt64, type: String, source: String, payload: [UInt8], time: [UInt8] = []) {
        self.id = id
        self.type = type
        self.source = source
        self.payload = payload
        self.time = time
    }
}

/// What ``JournalFollower`` can read a line as.
protocol JournalFollowerItem: Sendable, Hashable {
    /// The sequence number.
    var id: UInt64 { get }
    /// Reads one line's body (without checksum and newline).
    static func decode(_ line: UnsafeBufferPointer<UInt8>) -> Result<Self, JournalLine.DecodeError>
}

extension BusAction: JournalFollowerItem {
    static func decode(_ line: UnsafeBufferPointer<UInt8>) -> Result<BusAction, JournalLine.DecodeError> {
        JournalLine.decode(line)
    }
}

extension JournaledAction: JournalFollowerItem {
    /// Reads a line as ``JournalLine/appendObject(_:to:)`` writes it —
    /// `{"cause":…,"id":N,"payload":…,"source":"…","time":"…","type":"…"}` — finding the end
    /// of the payload without building it (the line's checksum already vouches for its
    /// bytes). A line in any other shape (hand-written, an older writer) is read in full
    /// instead, so the result is the same either way.
    static func decode(_ line: UnsafeBufferPointer<UInt8>) -> Result<JournaledAction, JournalLine.DecodeError> {
        if let fast = readWritersShape(line) { return .success(fast) }
        return JournalLine.decode(line).map { action in
            var payload: [UInt8] = []
            action.payload.serialize(into: &payload)
            var time: [UInt8] = []
            Timestamp.appendISO8601(action.time, to: &time)
            return JournaledAction(id: action.id, type: action.type, source: action.source, payload: payload, time: time)
        }
    }

    /// Reads the writer's shape; `nil` at the first byte that differs.
    private static func readWritersShape(_ line: UnsafeBufferPointer<UInt8>) -> JournaledAction? {
        guard let shape = JournalLine.WritersShape(line) else { return nil }
        return JournaledAction(id: shape.id, type: shape.type, source: shape.source,
                               payload: Array(UnsafeBufferPointer(rebasing: line[shape.payload])),
                               time: Array(UnsafeBufferPointer(rebasing: line[shape.time])))
    }
}
