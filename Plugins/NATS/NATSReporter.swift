import SwitchyardBus
import Synchronization

/// Turns what the bridge learns into `NAME/status`, `NAME/failed`, `NAME/overflow` and
/// `NAME/counters` actions and log lines, without repeating itself.
///
/// A status is emitted when it changes; a failure when it differs from the previous one, so
/// a server that stays unreachable gives one `NAME/failed` per outage, not one per attempt.
/// Actions are sent without waiting (``PluginContext/send(_:payload:cause:)``), since the
/// bridge reports from places that must never wait for the bus.
final class NATSReporter: Sendable {
    private struct Memory: Sendable {
        var status: String?
        var statusDetail: String?
        var failure: String?
        var counters: JSON?
        var countersAt: Duration?
    }

    /// The least time between two `NAME/counters` actions, so counting costs the journal at
    /// most one action a second.
    static let countersInterval = Duration.seconds(1)

    let context: PluginContext
    private let memory = Mutex(Memory())

    init(context: PluginContext) {
        self.context = context
    }

    /// Emits `NAME/status` when `status` or `detail` differs from the last one.
    func status(_ status: String, detail: String? = nil, payload: [String: JSON]) {
        let changed = memory.withLock { memory in
            defer { (memory.status, memory.statusDetail) = (status, detail) }
            return memory.status != status || memory.statusDetail != detail
        }
        guard changed else { return }
        var members = payload
        members["status"] = .string(status)
        emit("status", payload: .object(members))
    }

    /// Forgets the last failure, so the next one is reported even if it is the same (after a
    /// successful connect).
    func resetFailures() {
        memory.withLock { $0.failure = nil }
    }

    /// Emits `NAME/failed` and a warning, unless `repeatable` is false and the same failure
    /// was the last one reported.
    func failure(_ kind: String, _ message: String, details: [String: JSON] = [:], repeatable: Bool) {
        let key = kind + ": " + message
        let isNew = memory.withLock { memory in
            defer { memory.failure = key }
            return memory.failure != key
        }
        guard repeatable || isNew else { return }
        context.log.warning(message)
        var payload = details
        payload["kind"] = .string(kind)
        payload["message"] = .string(message)
        emit("failed", payload: .object(payload))
    }

    /// Emits `NAME/counters` when `counters` differ from the last ones emitted and
    /// ``countersInterval`` has passed since (`now` on the bridge's clock), so
    /// `state.NAME.counters` follows the bridge's work instead of its last status change.
    func counters(_ counters: JSON, now: Duration) {
        let due = memory.withLock { memory in
            guard memory.counters != counters, memory.countersAt.map({ now - $0 >= Self.countersInterval }) ?? true else { return false }
            (memory.counters, memory.countersAt) = (counters, now)
            return true
        }
        if due { emit("counters", payload: counters) }
    }

    /// Emits `NAME/overflow` and a warning.
    func overflow(dropped: Int, policy: OutboxOverflow, bufferSize: Int) {
        context.log.warning("the outgoing buffer of \(bufferSize) actions is full; \(policy.rawValue) (\(dropped) dropped so far)")
        emit("overflow", payload: ["dropped": .integer(Int64(dropped)), "policy": .string(policy.rawValue), "bufferSize": .integer(Int64(bufferSize))])
    }

    private func emit(_ event: String, payload: JSON) {
        if !context.send("\(context.name)/\(event)", payload: payload) {
            context.log.warning("lost \(context.name)/\(event): the bus inbox is full")
        }
    }
}
