import SwitchyardStreams

/// Streams reduced actions to one client as Server-Sent Events.
///
/// Each action is one event: `id:` is its sequence number and `data:` its JSON, as journal
/// lines have it. With a `Last-Event-ID`, the actions journaled after it come first, read from
/// the journal, then the live ones; the live subscription is made before the journal is read,
/// so nothing falls between the two. A client that does not keep up is never buffered without
/// bound: when its action buffer or its outbox overflows, the connection is dropped (and
/// counted), and its `EventSource` reconnects with `Last-Event-ID` and resumes from the journal.
struct HTTPEventStream: Sendable {
    let actions: Broadcast<ActionLine>.Subscription
    let pattern: TypePattern
    let lastEventID: UInt64?
    let journalDirectory: String?
    let outbox: ConnectionOutbox
    let limits: HTTPLimits
    let wake: @Sendable () -> Void

    /// One event: `id: N\ndata: JSON\n\n`.
    static func event(_ action: BusAction, into bytes: inout [UInt8]) {
        event(id: action.id, into: &bytes) { JournalLine.appendObject(action, to: &$0) }
    }

    /// One event of a live action, its object copied from where the bus wrote it once.
    static func event(_ line: ActionLine, into bytes: inout [UInt8]) {
        event(id: line.id, into: &bytes) { line.appendObject(to: &$0) }
    }

    private static func event(id: UInt64, into bytes: inout [UInt8], data: (inout [UInt8]) -> Void) {
        LineBytes.append("id: ", to: &bytes)
        LineBytes.appendDecimal(id, to: &bytes)
        LineBytes.append("\ndata: ", to: &bytes)
        data(&bytes)
        bytes.append(contentsOf: "\n\n".utf8)
    }

    /// A named event (`event: NAME`) with a JSON body and no id.
    static func notice(_ name: String, _ value: JSON) -> [UInt8] {
        Array("event: \(name)\ndata: \(value.serialized())\n\n".utf8)
    }

    /// Runs until the bus stops (the stream then ends with an `end` event), the client is
    /// dropped, or the task is cancelled (the connection closed).
    func run() async {
        var skipThrough: UInt64 = 0
        if let lastEventID {
            guard let through = replay(after: lastEventID) else { return }
            skipThrough = through
        }
        var line: [UInt8] = []
        for await action in actions {
            if actions.droppedCount > 0 {
                drop("more than \(limits.streamBufferActions) actions were waiting for this client")
                return
            }
            guard action.id > skipThrough else { continue }
            line.removeAll(keepingCapacity: true)
            Self.event(action, into: &line)
            guard deliver(line) else { return }
        }
        if !Task.isCancelled, outbox.append(Self.notice("end", ["end": "stopping"])) == .queued { wake() }
        outbox.finish()
        wake()
    }

    /// Sends the journaled actions after `position` that match; returns the last sequence
    /// number read, or `nil` when the stream ended (dropped, closed, or the journal failed).
    private func replay(after position: UInt64) -> UInt64? {
        guard let journalDirectory else {
            if outbox.append(Self.notice("gap", ["after": .integer(Int64(clamping: position)), "reason": "this bus keeps no journal"])) == .queued { wake() }
            return position
        }
        var follower = JournalFollower(dataDirectory: journalDirectory, after: position)
        var line: [UInt8] = []
        while !Task.isCancelled {
            let batch: JournalFollower.Batch
            do {
                batch = try follower.read(limit: 512)
            } catch {
                _ = outbox.append(Self.notice("error", ["message": .string("cannot read the journal: \(error)")]))
                outbox.finish()
                wake()
                return nil
            }
            if let missing = batch.missing {
                let notice = Self.notice("gap", ["from": .integer(Int64(clamping: missing.lowerBound)),
                                                 "through": .integer(Int64(clamping: missing.upperBound)),
                                                 "reason": "compacted out of the journal"])
                guard deliver(notice) else { return nil }
            }
            for action in batch.actions where pattern.matches(action.type) {
                line.removeAll(keepingCapacity: true)
                Self.event(action, into: &line)
                guard deliver(line) else { return nil }
            }
            if batch.reachedEnd { return follower.position }
        }
        return nil
    }

    /// Queues `bytes`; `false` once the client is dropped or the connection closed.
    private func deliver(_ bytes: [UInt8]) -> Bool {
        switch outbox.append(bytes) {
        case .queued:
            wake()
            return true
        case .overCapacity:
            drop("more than \(limits.streamBufferBytes) bytes were waiting for this client to read (or more than \(limits.streamBufferFloor) while all streams together held \(limits.streamBudgetBytes))")
            return false
        case .closed:
            return false
        }
    }

    private func drop(_ reason: String) {
        // Nothing is added: a partly sent event has no blank line, so the client never sees
        // it, and resumes after the last whole one.
        if outbox.drop(reason: reason, line: []) { wake() }
    }
}
