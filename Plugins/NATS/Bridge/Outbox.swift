/// The actions waiting to go to NATS, and, with JetStream, those sent but not yet
/// acknowledged — a state machine without I/O.
///
/// Actions wait while the bridge is disconnected or the connection is congested. Together
/// waiting and unacknowledged actions never exceed ``capacity``; a full outbox drops per its
/// ``OutboxOverflow`` policy and counts what it dropped. With a ``window`` (JetStream), at
/// most that many actions are unacknowledged at once; when the connection drops they go
/// back to the front, in order, to be sent again (the server's duplicate detection makes
/// that safe), and one unacknowledged for longer than the request timeout is sent again.
struct Outbox: Sendable {
    private struct Sent: Sendable {
        var message: OutgoingMessage
        var sentAt: Duration
    }

    /// What became of a submitted action.
    struct Admission: Sendable {
        /// Actions to send now, in order.
        var send: [OutgoingMessage] = []
        /// The action dropped to make room, if any.
        var dropped: OutgoingMessage?
        /// Whether that drop starts an overflow episode (the first since the outbox last
        /// emptied), the moment to tell someone.
        var startsOverflow = false
    }

    /// The most actions held, waiting and unacknowledged together.
    let capacity: Int
    /// Which action goes when full.
    let overflow: OutboxOverflow
    /// The most unacknowledged actions; `nil` when sends are not acknowledged (core NATS).
    let window: Int?

    private var waiting: [OutgoingMessage] = []
    private var head = 0
    private var unacknowledged: [UInt64: Sent] = [:]
    private var overflowing = false
    private(set) var isOpen = false
    /// Actions dropped because the outbox was full, since it was created.
    private(set) var droppedCount = 0

    /// Creates an empty, closed outbox.
    init(capacity: Int, overflow: OutboxOverflow, window: Int?) {
        let capacity = max(capacity, 1)
        self.capacity = capacity
        self.overflow = overflow
        self.window = window.map { min(max($0, 1), capacity) }
    }

    /// Actions held, waiting and unacknowledged.
    var count: Int { waitingCount + unacknowledged.count }
    /// Actions waiting to be sent.
    var waitingCount: Int { waiting.count - head }
    /// Whether a submitted action would be handed back to send at once, alone: open, nothing
    /// waiting, no acknowledgements to count.
    var passesStraightThrough: Bool { isOpen && window == nil && head == waiting.count }
    /// Actions sent and not yet acknowledged.
    var unacknowledgedCount: Int { unacknowledged.count }

    /// Takes an action: to send now when open and the window has room, else to wait.
    mutating func submit(_ message: OutgoingMessage, now: Duration) -> Admission {
        var admission = Admission()
        if count >= capacity {
            if overflow == .dropOldest, waitingCount > 0 {
                admission.dropped = waiting[head]
                head += 1
                waiting.append(message)
            } else {
                admission.dropped = message
            }
            droppedCount += 1
            admission.startsOverflow = !overflowing
            overflowing = true
            compact()
            return admission
        }
        waiting.append(message)
        admission.send = takeSendable(now: now)
        return admission
    }

    /// The connection is ready: returns what may be sent now.
    mutating func open(now: Duration) -> [OutgoingMessage] {
        isOpen = true
        return takeSendable(now: now)
    }

    /// The connection is congested or gone: hold everything until ``open(now:)``.
    mutating func pause() {
        isOpen = false
    }

    /// The connection is gone: unacknowledged actions go back to the front, in id order.
    mutating func close() {
        isOpen = false
        guard !unacknowledged.isEmpty else { return }
        let resend = unacknowledged.values.map { sent in
            var message = sent.message
            message.isResend = true
            return message
        }.sorted { $0.actionID < $1.actionID }
        unacknowledged = [:]
        waiting = resend + waiting[head...]
        head = 0
    }

    /// The action `id` if it was sent and is not yet acknowledged.
    func unacknowledged(_ id: UInt64) -> OutgoingMessage? {
        unacknowledged[id]?.message
    }

    /// The server stored the action `id`: returns what may be sent now.
    mutating func acknowledge(_ id: UInt64, now: Duration) -> [OutgoingMessage] {
        guard unacknowledged.removeValue(forKey: id) != nil else { return [] }
        return takeSendable(now: now)
    }

    /// The server refused the action `id` for good: returns it (to report), if it was
    /// unacknowledged, and what may be sent now.
    mutating func reject(_ id: UInt64, now: Duration) -> (rejected: OutgoingMessage?, send: [OutgoingMessage]) {
        let rejected = unacknowledged.removeValue(forKey: id)?.message
        return (rejected, rejected == nil ? [] : takeSendable(now: now))
    }

    /// Unacknowledged actions sent at least `timeout` ago, to send again (their clock restarts).
    mutating func expired(now: Duration, timeout: Duration) -> [OutgoingMessage] {
        guard isOpen else { return [] }
        var again: [OutgoingMessage] = []
        for (id, sent) in unacknowledged where now - sent.sentAt >= timeout {
            unacknowledged[id]?.sentAt = now
            unacknowledged[id]?.message.isResend = true
            again.append(sent.message)
        }
        return again.sorted { $0.actionID < $1.actionID }
    }

    private mutating func takeSendable(now: Duration) -> [OutgoingMessage] {
        guard isOpen else { return [] }
        var send: [OutgoingMessage] = []
        while head < waiting.count {
            if let window, unacknowledged.count >= window { break }
            let message = waiting[head]
            head += 1
            if window != nil { unacknowledged[message.actionID] = Sent(message: message, sentAt: now) }
            send.append(message)
        }
        compact()
        return send
    }

    private mutating func compact() {
        if head == waiting.count {
            waiting.removeAll(keepingCapacity: true)
            head = 0
            overflowing = false
        } else if head > 1024, head * 2 > waiting.count {
            waiting.removeSubrange(0..<head)
            head = 0
        }
    }
}
