import SwitchyardBus
import SwitchyardTestSupport
import Synchronization

/// Collects `(event, payload)` pairs from a session or socket and lets a test wait for a
/// condition (a bus is recorded by `SwitchyardTesting.TestBus`).
final class ActionRecorder: Sendable {
    /// One emitted event (`fix`, `status`, …) and its payload.
    struct Record: Sendable, Hashable {
        var event: String
        var payload: JSON
    }

    private struct Waiter {
        var condition: @Sendable ([Record]) -> Bool
        var continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var records: [Record] = []
        var waiters: [Int: Waiter] = [:]
        var nextID = 0
    }

    private let state = Mutex(State())

    /// Every record so far, in order.
    var records: [Record] { state.withLock { $0.records } }

    /// The payloads of `event`, in order.
    func payloads(_ event: String) -> [JSON] {
        records.filter { $0.event == event }.map(\.payload)
    }

    /// The `status` values of `event` in order.
    func statuses(_ event: String = "status") -> [String] {
        payloads(event).compactMap { $0["status"]?.stringValue }
    }

    /// Appends a record and wakes waiters whose condition now holds.
    func record(_ event: String, _ payload: JSON) {
        record(Record(event: event, payload: payload))
    }

    private func record(_ record: Record) {
        let woken = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
            state.records.append(record)
            let records = state.records
            let ready = state.waiters.filter { $0.value.condition(records) }
            for id in ready.keys { state.waiters[id] = nil }
            return ready.values.map(\.continuation)
        }
        for continuation in woken { continuation.resume(returning: true) }
    }

    /// Waits until `condition` holds for the records; `false` if it has not within `limit` of
    /// real time (scaled by `SWITCHYARD_TEST_TIMEOUT_SCALE`) — a safety net against hanging on an external process, not a timing check.
    func wait(
        upTo limit: Duration = .seconds(30), until condition: @escaping @Sendable ([Record]) -> Bool
    ) async -> Bool {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        return await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await withCheckedContinuation { continuation in
                    let holds = self.state.withLock { state -> Bool in
                        if condition(state.records) { return true }
                        state.waiters[id] = Waiter(condition: condition, continuation: continuation)
                        return false
                    }
                    if holds { continuation.resume(returning: true) }
                }
            }
            group.addTask {
                try? await Task.sleep(for: TestTimeouts.scaled(limit))
                let waiter = self.state.withLock { $0.waiters.removeValue(forKey: id) }
                waiter?.continuation.resume(returning: false)
                return false
            }
            let result = await group.next() ?? false
            group.cancelAll()
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.continuation.resume(returning: false)
            return result
        }
    }
}
