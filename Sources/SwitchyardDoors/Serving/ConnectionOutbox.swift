import Synchronization

/// The bytes waiting to go out on one connection of a door (the control socket's, HTTP's),
/// with the events its I/O thread must learn of; filled from any task, sent by the I/O thread.
///
/// Bounded: a producer that would push the queued bytes past ``capacity``, or past its share
/// of the server's ``OutboxBudget`` when it has one, is told so (a watcher is then dropped)
/// instead of growing the queue. Producers wake the I/O thread
/// after each call; the server coalesces those wake-ups.
final class ConnectionOutbox: Sendable {
    /// What the I/O thread collects besides bytes.
    struct Events: Sendable, Hashable {
        /// Requests answered since the last collection.
        var completions = 0
        /// Whether the producer is done and the connection may close once flushed.
        var finished = false
        /// Why the connection was dropped, if it was since the last collection.
        var dropped: String?
    }

    enum AppendResult: Sendable, Hashable {
        case queued
        case overCapacity
        case closed
    }

    fileprivate struct State: Sendable {
        var bytes: [UInt8] = []
        var head = 0
        /// Whether the bytes sent so far end inside a line.
        var midLine = false
        var events = Events()
        var hasEvents = false
        var dropped = false
        var closed = false
        /// Bytes queued by ``append(_:)`` and counted in the budget, not yet sent or discarded.
        var budgeted = 0
    }

    /// The most bytes queued before ``append(_:)`` refuses (a single line is always taken
    /// by an empty queue).
    let capacity: Int
    /// What the outboxes of the server hold together; `nil`: only ``capacity`` bounds this one.
    let budget: OutboxBudget?
    private let state = Mutex(State())

    init(capacity: Int, budget: OutboxBudget? = nil) {
        self.capacity = capacity
        self.budget = budget
    }

    /// Bytes queued and not yet sent.
    var pendingCount: Int { state.withLock { $0.bytes.count - $0.head } }

    /// Queues one whole line, unless that would pass ``capacity`` or the outbox is closed.
    func append(_ line: [UInt8]) -> AppendResult {
        state.withLock { state in
            guard !state.closed, !state.dropped else { return .closed }
            let pending = state.bytes.count - state.head
            guard pending == 0 || pending + line.count <= capacity else { return .overCapacity }
            if let budget {
                guard budget.take(line.count, pending: pending) else { return .overCapacity }
                state.budgeted += line.count
            }
            state.bytes.append(contentsOf: line)
            return .queued
        }
    }

    /// Queues a reply to a request whatever its size: the connection stops taking requests
    /// while replies wait (the control socket's watcher limits), which bounds them instead. Returns `false`
    /// when the outbox is closed.
    @discardableResult
    func appendReply(_ line: [UInt8]) -> Bool {
        state.withLock { state in
            guard !state.closed else { return false }
            state.bytes.append(contentsOf: line)
            return true
        }
    }

    /// Queues the reply that completes a request and records the completion.
    func complete(with reply: [UInt8]) {
        state.withLock { state in
            if !state.closed { state.bytes.append(contentsOf: reply) }
            state.events.completions += 1
            state.hasEvents = true
        }
    }

    /// Queues the reply `write` appends, which completes a request, and records the
    /// completion; `write` runs under the outbox's lock, so it must be quick (a dispatch's
    /// reply is written this way, without a buffer of its own).
    func complete(writing write: (inout [UInt8]) -> Void) {
        state.withLock { state in
            if !state.closed { write(&state.bytes) }
            state.events.completions += 1
            state.hasEvents = true
        }
    }

    /// The producer is done: the connection closes once the queue is sent.
    func finish() {
        state.withLock { state in
            state.events.finished = true
            state.hasEvents = true
        }
    }

    /// Drops the connection: queued bytes not yet begun are discarded and `line`, a last
    /// error reply, takes their place. Returns `false` when it was dropped or closed before.
    func drop(reason: String, line: [UInt8]) -> Bool {
        state.withLock { state in
            guard !state.dropped, !state.closed else { return false }
            // Keep the rest of a line already partly sent, so the stream stays line-framed.
            var keep = state.head
            if state.midLine {
                keep = state.bytes[state.head...].firstIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? state.bytes.count
            }
            state.bytes.removeSubrange(keep...)
            state.bytes.append(contentsOf: line)
            state.releaseBudget(budget)
            state.events.dropped = reason
            state.dropped = true
            state.hasEvents = true
            return true
        }
    }

    /// Takes the events since the last call; `nil` when there are none.
    func takeEvents() -> Events? {
        state.withLock { state in
            guard state.hasEvents else { return nil }
            let events = state.events
            state.events.completions = 0
            state.events.dropped = nil
            state.hasEvents = false
            return events
        }
    }

    /// Sends queued bytes with `send`, which returns the count it sent, or 0 or less when the
    /// socket takes nothing now. Returns the bytes sent; the queue keeps the rest. The lock is
    /// not held while sending, so producers never wait for a system call.
    func flush(_ send: (UnsafeRawBufferPointer) -> Int) -> Int {
        var (bytes, head) = state.withLock { state -> ([UInt8], Int) in
            defer {
                state.bytes = []
                state.head = 0
            }
            return (state.bytes, state.head)
        }
        let start = head
        while head < bytes.count {
            let sent = bytes.withUnsafeBytes { send(UnsafeRawBufferPointer(rebasing: $0[head...])) }
            guard sent > 0 else { break }
            head += sent
        }
        let total = head - start
        state.withLock { state in
            if total > 0 { state.midLine = bytes[head - 1] != UInt8(ascii: "\n") }
            // Replies are not counted, so what was sent may be more than what was.
            let sentBudgeted = min(total, state.budgeted)
            state.budgeted -= sentBudgeted
            budget?.give(sentBudgeted)
            guard !state.closed else { return }
            if head < bytes.count {
                // Put the rest back in front of whatever producers queued meanwhile.
                bytes.removeSubrange(..<head)
                bytes.append(contentsOf: state.bytes[state.head...])
                state.bytes = bytes
                state.head = 0
            } else if state.bytes.isEmpty, bytes.capacity <= 256 << 10 {
                // Hand the buffer back for reuse.
                bytes.removeAll(keepingCapacity: true)
                state.bytes = bytes
            }
        }
        return total
    }

    /// Closes the outbox: queued bytes are discarded and later appends refused.
    func close() {
        state.withLock { state in
            state.closed = true
            state.bytes = []
            state.head = 0
            state.releaseBudget(budget)
        }
    }
}

extension ConnectionOutbox.State {
    /// Gives back everything counted in `budget`: the queued bytes were discarded.
    fileprivate mutating func releaseBudget(_ budget: OutboxBudget?) {
        budget?.give(budgeted)
        budgeted = 0
    }
}
