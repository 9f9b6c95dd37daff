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
        await suspend(cancelled: ()) { state, id, continuation in
            if state.sleepers.count == count { return () }
            state.countWaiters[id] = CountWaiter(count: count, continuation: continuation)
            return nil
        } remove: { state, id in
            state.countWaiters.removeValue(forKey: id)?.continuation
        }
    }

    func waitForSleeper(where predicate: @escaping @Sendable (Duration) -> Bool) async -> Duration? {
        await suspend(cancelled: nil) { state, id, continuation in
            if let delay = state.delay(where: predicate) { return delay }
            state.delayWaiters[id] = DelayWaiter(predicate: predicate, continuation: continuation)
            return .none
        } remove: { state, id in
            state.delayWaiters.removeValue(forKey: id)?.continuation
        }
    }

    /// Suspends the calling task until it is resumed with a value. Under the lock, `register`
    /// returns the value to resume with at once, or keeps the continuation under the wait's id
    /// and returns `nil`; `remove` takes a kept one back out. Cancelling resumes the wait with
    /// `cancelled`, at once when it is kept and as soon as it registers when it is not yet.
    private func suspend<Value: Sendable>(
        cancelled: Value,
        register: @escaping @Sendable (inout State, UInt64, UnsafeContinuation<Value, Never>) -> Value?,
        remove: @escaping @Sendable (inout State, UInt64) -> UnsafeContinuation<Value, Never>?
    ) async -> Value {
        let id = state.withLock { $0.waits.makeID() }
        return await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Value, Never>) in
                let now = state.withLock { state -> Value? in
                    state.waits.register(id) ? cancelled : register(&state, id, continuation)
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> UnsafeContinuation<Value, Never>? in
                guard let waiter = remove(&state, id) else {
                    state.waits.cancelEarly(id)
                    return nil
                }
                return waiter
            }
            waiter?.resume(returning: cancelled)
        }
    }
}
