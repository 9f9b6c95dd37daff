import Synchronization

/// Work items that start, then wait until the test opens their gate (or they are
/// cancelled), recording what happened, for policy tests without I/O.
final class GatedWork: Sendable {
    enum Event: Sendable, Hashable {
        case started(Int)
        case finished(Int)
        case cancelled(Int)
    }

    private struct State {
        var events: [Event] = []
        var open: Set<Int> = []
        var gates: [Int: CheckedContinuation<Void, Never>] = [:]
        var watchers: [(Event, CheckedContinuation<Void, Never>)] = []
    }

    private let state = Mutex(State())

    /// Everything so far, in order.
    var events: [Event] { state.withLock { $0.events } }

    /// The work for element `number`.
    func run(_ number: Int) async {
        record(.started(number))
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let now = state.withLock { state -> Bool in
                    if state.open.contains(number) || Task.isCancelled { return true }
                    state.gates[number] = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.gates.removeValue(forKey: number) }?.resume()
        }
        record(Task.isCancelled ? .cancelled(number) : .finished(number))
    }

    /// Lets work `number` finish (now or when it starts).
    func open(_ number: Int) {
        let gate = state.withLock { state in
            state.open.insert(number)
            return state.gates.removeValue(forKey: number)
        }
        gate?.resume()
    }

    /// Returns once `event` has happened.
    func waitFor(_ event: Event) async {
        await withCheckedContinuation { continuation in
            let happened = state.withLock { state -> Bool in
                if state.events.contains(event) { return true }
                state.watchers.append((event, continuation))
                return false
            }
            if happened { continuation.resume() }
        }
    }

    private func record(_ event: Event) {
        let woken = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.events.append(event)
            var woken: [CheckedContinuation<Void, Never>] = []
            state.watchers.removeAll { watcher in
                guard watcher.0 == event else { return false }
                woken.append(watcher.1)
                return true
            }
            return woken
        }
        for continuation in woken { continuation.resume() }
    }
}
