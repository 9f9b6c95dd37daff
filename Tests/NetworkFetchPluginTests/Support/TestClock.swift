import Synchronization

/// A clock that moves only when a test calls ``advance(by:)``, and lets the test wait until
/// the code under test is sleeping, so timeouts and backoff are tested without real waiting.
final class TestClock: Clock, Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration

        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        var deadline: Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct Watcher {
        var predicate: @Sendable (Duration) -> Bool
        var continuation: CheckedContinuation<Duration, Never>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var nextID: UInt64 = 0
        var sleepers: [UInt64: Sleeper] = [:]
        var watchers: [Watcher] = []
    }

    private let state = Mutex(State())

    var now: Instant { state.withLock { $0.now } }
    var minimumResolution: Duration { .zero }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Registration { case sleeping([(CheckedContinuation<Duration, Never>, Duration)]), due, cancelled }
                let registration = state.withLock { state -> Registration in
                    if Task.isCancelled { return .cancelled }
                    if deadline <= state.now { return .due }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    let delay = state.now.duration(to: deadline)
                    var satisfied: [(CheckedContinuation<Duration, Never>, Duration)] = []
                    state.watchers.removeAll { watcher in
                        guard watcher.predicate(delay) else { return false }
                        satisfied.append((watcher.continuation, delay))
                        return true
                    }
                    return .sleeping(satisfied)
                }
                switch registration {
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .due: continuation.resume()
                case .sleeping(let satisfied): for (watcher, delay) in satisfied { watcher.resume(returning: delay) }
                }
            }
        } onCancel: {
            let sleeper = state.withLock { $0.sleepers.removeValue(forKey: id) }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock forward and wakes every sleeper whose deadline has come.
    func advance(by duration: Duration) {
        let due = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
            state.now = state.now.advanced(by: duration)
            let now = state.now
            let due = state.sleepers.filter { $0.value.deadline <= now }
            for id in due.keys { state.sleepers[id] = nil }
            return due.values.sorted { $0.deadline < $1.deadline }.map(\.continuation)
        }
        for continuation in due { continuation.resume() }
    }

    /// The time from now until each sleeper's deadline, shortest first.
    var pendingDelays: [Duration] {
        state.withLock { state in state.sleepers.values.map { state.now.duration(to: $0.deadline) }.sorted() }
    }

    /// Waits until something sleeps for a delay (from now) that satisfies `predicate`, and
    /// returns that delay.
    @discardableResult
    func waitForSleeper(where predicate: @escaping @Sendable (Duration) -> Bool) async -> Duration {
        await withCheckedContinuation { continuation in
            let found = state.withLock { state -> Duration? in
                let delays = state.sleepers.values.map { state.now.duration(to: $0.deadline) }
                if let delay = delays.first(where: predicate) { return delay }
                state.watchers.append(Watcher(predicate: predicate, continuation: continuation))
                return nil
            }
            if let found { continuation.resume(returning: found) }
        }
    }
}
