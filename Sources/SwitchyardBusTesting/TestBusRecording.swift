import SwitchyardBus
import Synchronization

/// What a ``TestBus`` has seen: every reduced action in order, the bus's log lines, and the
/// actions ``TestBus/receive(_:where:timeout:sourceLocation:)`` has handed out. Waiters register
/// a condition and are resumed the moment a record makes it hold, the recording ends, or their
/// real-time bound passes — nobody polls.
final class TestBusRecording: Sendable {
    /// What a waiter's condition looks at.
    struct Snapshot: Sendable {
        var actions: [BusAction]
        var logLines: [String]
        /// Whether the bus's action stream has ended (the bus stopped).
        var isFinished: Bool
    }

    private struct Waiter {
        var condition: @Sendable (Snapshot) -> Bool
        var continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var snapshot = Snapshot(actions: [], logLines: [], isFinished: false)
        var received: Set<UInt64> = []
        var waiters: [UInt64: Waiter] = [:]
        var waits = PendingWaits()
    }

    private let state = Mutex(State())

    var snapshot: Snapshot { state.withLock { $0.snapshot } }

    func record(_ action: BusAction) {
        update { $0.actions.append(action) }
    }

    func log(_ line: String) {
        update { $0.logLines.append(line) }
    }

    func finish() {
        update { $0.isFinished = true }
    }

    /// The first action satisfying `matches` that no earlier call claimed, now claimed.
    func claimFirst(where matches: (BusAction) -> Bool) -> BusAction? {
        state.withLock { state in
            guard let action = state.snapshot.actions.first(where: { !state.received.contains($0.id) && matches($0) }) else {
                return nil
            }
            state.received.insert(action.id)
            return action
        }
    }

    /// Suspends until `condition` holds (`true`), or `limit` of real time passes or the task is
    /// cancelled (`false`, with the condition checked one last time).
    func wait(limit: Duration, until condition: @escaping @Sendable (Snapshot) -> Bool) async -> Bool {
        let id = state.withLock { $0.waits.makeID() }
        let met = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await withCheckedContinuation { continuation in
                    let resumeWith: Bool? = self.state.withLock { state in
                        if state.waits.register(id) { return false }
                        if condition(state.snapshot) { return true }
                        state.waiters[id] = Waiter(condition: condition, continuation: continuation)
                        return nil
                    }
                    if let resumeWith { continuation.resume(returning: resumeWith) }
                }
            }
            group.addTask {
                try? await Task.sleep(for: limit)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            self.abandon(id)
            return first
        }
        return met || condition(snapshot)
    }

    private func abandon(_ id: UInt64) {
        let waiter = state.withLock { state -> Waiter? in
            state.waits.cancelEarly(id)
            return state.waiters.removeValue(forKey: id)
        }
        waiter?.continuation.resume(returning: false)
    }

    private func update(_ change: (inout Snapshot) -> Void) {
        let woken = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
            change(&state.snapshot)
            let snapshot = state.snapshot
            let ready = state.waiters.filter { $0.value.condition(snapshot) }
            for id in ready.keys { state.waiters[id] = nil }
            return ready.values.map(\.continuation)
        }
        for continuation in woken { continuation.resume(returning: true) }
    }
}
