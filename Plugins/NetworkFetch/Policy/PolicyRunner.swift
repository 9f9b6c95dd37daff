import Switchyard
import Synchronization

/// Runs work for each element of a sequence under a ``WorkPolicy``, optionally after a
/// trailing-edge debounce on the injected clock.
///
/// Work runs in tasks of its own so `latest` can cancel one; `every` and `queue` stop reading
/// the sequence while every slot is taken, so waiting triggers stay in the subscription buffer.
/// ``run(_:work:)`` returns when the sequence ends (after the work in flight finishes and a
/// debounced trigger has run) or when its task is cancelled (after cancelling and awaiting the
/// work in flight).
struct PolicyRunner: Sendable {
    var policy: WorkPolicy
    /// Quiet time required after a trigger before it is acted on; `nil` acts at once.
    var debounce: Duration?
    var clock: any Clock<Duration>
    /// Told about each trigger the policy ignores and each piece of work that ended.
    var observe: @Sendable (Event) -> Void = { _ in }

    /// What ``observe`` is told.
    enum Event: Sendable, Hashable {
        /// A trigger was ignored (`leading` while busy).
        case dropped
        /// Work ended and its slot is free again.
        case finished
    }

    func run<Triggers: AsyncSequence & Sendable>(
        _ triggers: Triggers, work: @escaping @Sendable (Triggers.Element) async -> Void
    ) async where Triggers.Element: Sendable, Triggers.Failure == Never {
        let observe = observe
        let slots = PolicySlots(policy: policy, onFinish: { observe(.finished) })
        let submit: @Sendable (Triggers.Element) async -> Void = { element in
            if await slots.submit(work: { await work(element) }) == .drop { observe(.dropped) }
        }
        await withTaskCancellationHandler {
            var pending: Task<Void, Never>?
            if let debounce {
                let clock = clock
                for await element in triggers {
                    pending?.cancel()
                    pending = Task {
                        do {
                            try await clock.sleep(for: debounce)
                        } catch {
                            return
                        }
                        await submit(element)
                    }
                }
            } else {
                for await element in triggers { await submit(element) }
            }
            if Task.isCancelled { pending?.cancel() }
            await pending?.value
            await slots.drain()
        } onCancel: {
            slots.cancelAll()
        }
    }
}

/// The running work of a ``PolicyRunner``: the state machine, the tasks and the triggers
/// waiting for a slot (in arrival order), under one lock.
private final class PolicySlots: Sendable {
    private struct State: Sendable {
        var machine: PolicyStateMachine
        var tasks: [Int: Task<Void, Never>] = [:]
        var waiters: [(id: UInt64, continuation: CheckedContinuation<Void, Never>)] = []
        var nextWaiterID: UInt64 = 0
        var cancelled = false
    }

    private let state: Mutex<State>
    private let onFinish: @Sendable () -> Void

    init(policy: WorkPolicy, onFinish: @escaping @Sendable () -> Void) {
        state = Mutex(State(machine: PolicyStateMachine(policy: policy)))
        self.onFinish = onFinish
    }

    /// Starts `work` as the policy allows, waiting for a slot when it says so; returns the
    /// decision that ended the wait, or `.drop` without starting when the runner or the
    /// calling task was cancelled.
    func submit(work: @escaping @Sendable () async -> Void) async -> PolicyStateMachine.Decision {
        while true {
            let decision = state.withLock { state -> PolicyStateMachine.Decision in
                guard !state.cancelled, !Task.isCancelled else { return .drop }
                let decision = state.machine.trigger()
                if case .start(let id, let superseded) = decision {
                    if let superseded { state.tasks[superseded]?.cancel() }
                    state.tasks[id] = Task {
                        await work()
                        self.finished(id)
                    }
                }
                return decision
            }
            guard decision == .wait else { return decision }
            await waitForSlot()
        }
    }

    /// Cancels the work in flight and wakes every trigger waiting for a slot; later submits
    /// are refused.
    func cancelAll() {
        let waiters = state.withLock { state in
            state.cancelled = true
            for task in state.tasks.values { task.cancel() }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.continuation.resume() }
    }

    /// Returns once no work is in flight.
    func drain() async {
        while let task = state.withLock({ $0.tasks.values.first }) {
            await task.value
        }
    }

    private func finished(_ id: Int) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.machine.finished(id)
            state.tasks[id] = nil
            guard state.machine.hasFreeSlot, !state.waiters.isEmpty else { return nil }
            return state.waiters.removeFirst().continuation
        }
        onFinish()
        waiter?.resume()
    }

    /// Suspends until a slot frees up, the runner is cancelled or the calling task is.
    private func waitForSlot() async {
        let id = state.withLock { state in
            defer { state.nextWaiterID += 1 }
            return state.nextWaiterID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state -> Bool in
                    if state.cancelled || state.machine.hasFreeSlot || Task.isCancelled { return true }
                    state.waiters.append((id, continuation))
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index).continuation
            }
            waiter?.resume()
        }
    }
}
