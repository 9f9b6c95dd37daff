import Foundation
import Switchyard
import Synchronization

@testable import NetworkFetchPlugin

/// Stands in for the bus around a ``FetchEngine``: stamps each emitted action with an id and
/// time, folds it into the plugin's slice with the plugin's own reducer, keeps the log lines,
/// and lets a test wait for an action.
final class RecordingBus: Sendable {
    private struct Waiter {
        var predicate: @Sendable (BusAction) -> Bool
        var continuation: CheckedContinuation<BusAction, Never>
    }

    private struct LogWaiter {
        var text: String
        var count: Int
        var continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var actions: [BusAction] = []
        var slice = LoadableSlice.initial
        var logs: [String] = []
        var nextID: UInt64 = 1
        var waiters: [Waiter] = []
        var logWaiters: [LogWaiter] = []
    }

    let name: String
    private let reducer: LoadableSlice
    private let state = Mutex(State())

    init(name: String, prefix: String? = nil) {
        self.name = name
        reducer = LoadableSlice(source: name, prefix: prefix ?? name)
    }

    /// Every action so far, in order.
    var actions: [BusAction] { state.withLock { $0.actions } }
    /// The plugin's slice after every action so far.
    var slice: JSON { state.withLock { $0.slice } }
    /// The warning lines the engine wrote.
    var logs: [String] { state.withLock { $0.logs } }

    /// The actions of one type, in order.
    func actions(_ type: String) -> [BusAction] { actions.filter { $0.type == type } }

    /// Records an action from outside the plugin (a trigger) and returns it stamped.
    func trigger(_ type: String, payload: JSON = .null) -> BusAction {
        record(BusAction(type: type, payload: payload, source: "test"))
    }

    /// The engine's emit function.
    func emit(_ type: String, _ payload: JSON, _ cause: UInt64?) {
        _ = record(BusAction(type: type, payload: payload, source: name, cause: cause))
    }

    func log(_ line: String) {
        let woken = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.logs.append(line)
            var woken: [CheckedContinuation<Void, Never>] = []
            let logs = state.logs
            state.logWaiters.removeAll { waiter in
                guard logs.count(where: { $0.contains(waiter.text) }) >= waiter.count else { return false }
                woken.append(waiter.continuation)
                return true
            }
            return woken
        }
        for continuation in woken { continuation.resume() }
    }

    /// Returns once `count` log lines containing `text` have been written.
    func waitForLog(containing text: String, count: Int = 1) async {
        await withCheckedContinuation { continuation in
            let found = state.withLock { state -> Bool in
                if state.logs.count(where: { $0.contains(text) }) >= count { return true }
                state.logWaiters.append(LogWaiter(text: text, count: count, continuation: continuation))
                return false
            }
            if found { continuation.resume() }
        }
    }

    /// Returns the first action (already recorded or still to come) satisfying `predicate`.
    @discardableResult
    func waitFor(_ predicate: @escaping @Sendable (BusAction) -> Bool) async -> BusAction {
        await withCheckedContinuation { continuation in
            let found = state.withLock { state -> BusAction? in
                if let action = state.actions.first(where: predicate) { return action }
                state.waiters.append(Waiter(predicate: predicate, continuation: continuation))
                return nil
            }
            if let found { continuation.resume(returning: found) }
        }
    }

    /// Waits for the `count`-th action of `type` and returns it.
    @discardableResult
    func waitFor(_ type: String, count: Int = 1) async -> BusAction {
        let seen = Mutex(0)
        return await waitFor { action in
            guard action.type == type else { return false }
            return seen.withLock { seen in
                seen += 1
                return seen >= count
            }
        }
    }

    private func record(_ unstamped: BusAction) -> BusAction {
        let (action, woken) = state.withLock { state -> (BusAction, [(CheckedContinuation<BusAction, Never>, BusAction)]) in
            var action = unstamped
            action.id = state.nextID
            action.time = Date()
            state.nextID += 1
            state.actions.append(action)
            reducer.reduce(&state.slice, action)
            var woken: [(CheckedContinuation<BusAction, Never>, BusAction)] = []
            state.waiters.removeAll { waiter in
                guard waiter.predicate(action) else { return false }
                woken.append((waiter.continuation, action))
                return true
            }
            return (action, woken)
        }
        for (continuation, action) in woken { continuation.resume(returning: action) }
        return action
    }
}
