import Synchronization

/// The shared time and sleepers behind copies of one ``ManualClock``.
final class ManualTimeline: Sendable {
    private struct Sleeper {
        var deadline: ManualClock.Instant
        var continuation: UnsafeContinuation<Void, any Error>
    }

    private struct CountWaiter {
        var count: Int
        var continuation: UnsafeContinuation<Void, Never>
    }

    private struct DelayWaiter {
        var predicate: @Sendable (Duration) -> Bool
        var continuation: UnsafeContinuation<Duration?, Never>
    }

    private struct State {
        var now = ManualClock.Instant(offset: .zero)
        var delayWaiters: [UInt64: DelayWaiter] = [:]
        var sleepers: [UInt64: Sleeper] = [:]
        var waits = PendingWaits()
        var countWaiters: [UInt64: CountWaiter] = [:]

        /// Removes and returns the count waiters whose count is now met.
        mutating func satisfiedCountWaiters() -> [UnsafeContinuation<Void, Never>] {
            let met = countWaiters.filter { $0.value.count == sleepers.count }
            for id in met.keys { countWaiters[id] = nil }
            return met.map(\.value.continuation)
        }

        /// The first current sleeper's delay from now that satisfies `predicate`.
        func delay(where predicate: (Duration) -> Bool) -> Duration? {
            sleepers.values.map { now.duration(to: $0.deadline) }.sorted().first(where: predicate)
        }

        /// Removes the delay waiters satisfied by a sleeper `delay` from now.
        mutating func satisfiedDelayWaiters(by delay: Duration) -> [(UnsafeContinuation<Duration?, Never>, Duration)] {
            let met = delayWaiters.filter { $0.value.predicate(delay) }
            for id in met.keys { delayWaiters[id] = nil }
            return met.map { ($0.value.continuation, delay) }
        }
    }

    /// What registering a sleeper decided, to act on after unlocking.
    private struct Registration {
        var outcome: Result<Void, any Error>?
        var countWaiters: [UnsafeContinuation<Void, Never>] = []
        var delayWaiters: [(UnsafeContinuation<Duration?, Never>, Duration)] = []
    }

    private let state = Mutex(State())

    var now: ManualClock.Instant { state.withLock { $0.now } }
    var sleeperCount: Int { state.withLock { $0.sleepers.count } }
    var nextDeadline: ManualClock.Instant? { state.withLock { $0.sleepers.values.map(\.deadline).min() } }
    var pendingDelays: [Duration] {
        state.withLock { state in state.sleepers.values.map { state.now.duration(to: $0.deadline) }.sorted() }
    }

    func sleep(until deadline: ManualClock.Instant) async throws {
        try Task.checkCancellation()
        let id = state.withLock { $0.waits.makeID() }
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
                let registration = state.withLock { state -> Registration in
                    if state.waits.register(id) { return Registration(outcome: .failure(CancellationError())) }
                    if deadline <= state.now { return Registration(outcome: .success(())) }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    var registration = Registration(outcome: nil)
                    registration.countWaiters = state.satisfiedCountWaiters()
                    if !state.delayWaiters.isEmpty {
                        registration.delayWaiters = state.satisfiedDelayWaiters(by: state.now.duration(to: deadline))
                    }
                    return registration
                }
                if let outcome = registration.outcome { continuation.resume(with: outcome) }
                for waiter in registration.countWaiters { waiter.resume() }
                for (waiter, delay) in registration.delayWaiters { waiter.resume(returning: delay) }
            }
        } onCancel: {
            let (sleeper, waiters) = state.withLock { state -> (Sleeper?, [UnsafeContinuation<Void, Never>]) in
                guard let sleeper = state.sleepers.removeValue(forKey: id) else {
                    state.waits.cancelEarly(id)
                    return (nil, [])
                }
                return (sleeper, state.satisfiedCountWaiters())
            }
            sleeper?.continuation.resume(throwing: CancellationError())
            for waiter in waiters { waiter.resume() }
        }
    }

    func advance(_ target: (ManualClock.Instant) -> ManualClock.Instant) {
        let (due, waiters) = state.withLock { state -> ([Sleeper], [UnsafeContinuation<Void, Never>]) in
            state.now = target(state.now)
            let now = state.now
            let dueIDs = state.sleepers.filter { $0.value.deadline <= now }
                .sorted { ($0.value.deadline, $0.key) < ($1.value.deadline, $1.key) }
                .map(\.key)
            let due = dueIDs.compactMap { state.sleepers.removeValue(forKey: $0) }
            return (due, due.isEmpty ? [] : state.satisfiedCountWaiters())
        }
        for sleeper in due { sleeper.continuation.resume() }
        for waiter in waiters { waiter.resume() }
    }

    func waitForSleepers(count: Int) async {
        let id = state.withLock { $0.waits.makeID() }
        await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    if state.waits.register(id) || state.sleepers.count == count { return true }
                    state.countWaiters[id] = CountWaiter(count: count, continuation: continuation)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CountWaiter? in
                guard let waiter = state.countWaiters.removeValue(forKey: id) else {
                    state.waits.cancelEarly(id)
                    return nil
                }
                return waiter
            }
            waiter?.continuation.resume()
        }
    }

    func waitForSleeper(where predicate: @escaping @Sendable (Duration) -> Bool) async -> Duration? {
        let id = state.withLock { $0.waits.makeID() }
        return await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Duration?, Never>) in
                let found = state.withLock { state -> Duration?? in
                    if state.waits.register(id) { return .some(nil) }
                    if let delay = state.delay(where: predicate) { return .some(delay) }
                    state.delayWaiters[id] = DelayWaiter(predicate: predicate, continuation: continuation)
                    return .none
                }
                if let found { continuation.resume(returning: found) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> DelayWaiter? in
                guard let waiter = state.delayWaiters.removeValue(forKey: id) else {
                    state.waits.cancelEarly(id)
                    return nil
                }
                return waiter
            }
            waiter?.continuation.resume(returning: nil)
        }
    }
}
