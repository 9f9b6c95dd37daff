import Synchronization
import SwitchyardStreams

/// Runs one middleware's effects: groups by ``EffectID``, each arriving effect admitted by its
/// ``WorkPolicy`` (start, wait, ignore, or cancel the group's work first), waiting effects
/// bounded by `capacity`.
///
/// The store calls ``apply(_:)`` right after reducing an action, so a cancellation takes effect
/// before the next action is reduced. When more effects wait than `capacity`, the policy of the
/// middleware decides: ``OverflowPolicy/suspendProducer`` (the default) pauses the store's inbox
/// to senders from outside until effects catch up — backpressure, nothing lost — while the drop
/// policies discard waiting effects, counted and logged once per episode.
@usableFromInline
final class EffectRunner<Action: Sendable>: Sendable {
    private struct Job: Sendable {
        let token: EffectToken
        let policy: WorkPolicy
        let body: @Sendable (_ emit: @escaping Effect<Action>.Emit) async throws -> Void
    }

    private struct Group: Sendable {
        var running: [Int: (token: EffectToken, task: Task<Void, Never>)] = [:]
        var waiting: [Job] = []
    }

    private struct State: Sendable {
        var groups: [EffectID?: Group] = [:]
        var waitingCount = 0
        var nextJobID = 0
        var pausing = false
        var dropping = false
        var closed = false
    }

    private let state = Mutex(State())
    private let name: String
    private let capacity: Int
    private let overflow: OverflowPolicy
    private let inbox: StoreInbox<Action>
    private let counters: StoreCounters
    private let onError: @Sendable (any Error) -> Void
    private let log: @Sendable (String) -> Void

    init(
        name: String, capacity: Int, overflow: OverflowPolicy, inbox: StoreInbox<Action>, counters: StoreCounters,
        onError: @escaping @Sendable (any Error) -> Void, log: @escaping @Sendable (String) -> Void
    ) {
        self.name = name
        self.capacity = max(1, capacity)
        self.overflow = overflow
        self.inbox = inbox
        self.counters = counters
        self.onError = onError
        self.log = log
    }

    /// Applies each item of `effect` in order.
    func apply(_ effect: Effect<Action>) {
        guard !effect.items.isEmpty else { return }
        var pauseChange = 0
        var dropEpisodeStarted = false
        state.withLock { state in
            guard !state.closed else { return }
            for item in effect.items {
                switch item {
                case .cancel(let id):
                    cancelGroup(id, in: &state)
                case .run(let id, let policy, let body):
                    admit(Job(token: EffectToken(), policy: policy, body: body), group: id, in: &state)
                }
            }
            if state.waitingCount > capacity {
                if overflow == .suspendProducer {
                    if !state.pausing { state.pausing = true; pauseChange = 1 }
                } else {
                    dropEpisodeStarted = shed(&state)
                }
            }
        }
        if pauseChange != 0 { inbox.changePauses(by: pauseChange) }
        if dropEpisodeStarted {
            log("store: middleware '\(name)' fell behind by more than \(capacity) effects; dropping (\(overflow)) until it catches up")
        }
    }

    /// Cancels everything and refuses later effects (the store has ended).
    func close() {
        let resume = state.withLock { state -> Bool in
            state.closed = true
            for id in Array(state.groups.keys) { cancelGroup(id, in: &state) }
            defer { state.pausing = false }
            return state.pausing
        }
        if resume { inbox.changePauses(by: -1) }
    }

    private func admit(_ job: Job, group id: EffectID?, in state: inout State) {
        var group = state.groups[id] ?? Group()
        switch job.policy {
        case .latest:
            cancel(&group, in: &state)
            start(job, group: id, into: &group, in: &state)
        case .leading:
            if group.running.isEmpty, group.waiting.isEmpty {
                start(job, group: id, into: &group, in: &state)
            } else {
                counters.countEffectsIgnored()
            }
        case .queue, .every:
            if group.waiting.isEmpty, group.running.count < job.policy.concurrency {
                start(job, group: id, into: &group, in: &state)
            } else {
                group.waiting.append(job)
                state.waitingCount += 1
            }
        }
        state.groups[id] = group
    }

    private func start(_ job: Job, group id: EffectID?, into group: inout Group, in state: inout State) {
        let jobID = state.nextJobID
        state.nextJobID += 1
        let token = job.token
        let emit: Effect<Action>.Emit = { [inbox, counters] action in
            guard !token.isCancelled else {
                counters.countEffectOutputDiscarded()
                return
            }
            _ = await inbox.enqueueEmission(action, token: token)
        }
        let task = Task { [onError, counters] in
            do {
                try await job.body(emit)
            } catch where !(error is CancellationError) && !token.isCancelled {
                counters.countMiddlewareFailure()
                onError(error)
            } catch {}
            self.finished(jobID, group: id)
            counters.countEffectFinished()
        }
        group.running[jobID] = (token, task)
        counters.countEffectStarted()
    }

    private func finished(_ jobID: Int, group id: EffectID?) {
        var resume = false
        state.withLock { state in
            guard var group = state.groups[id] else { return }
            group.running[jobID] = nil
            while let next = group.waiting.first, group.running.count < next.policy.concurrency {
                group.waiting.removeFirst()
                state.waitingCount -= 1
                start(next, group: id, into: &group, in: &state)
            }
            state.groups[id] = group.running.isEmpty && group.waiting.isEmpty ? nil : group
            if state.waitingCount <= capacity, state.pausing {
                state.pausing = false
                resume = true
            }
            if state.waitingCount == 0 { state.dropping = false }
        }
        if resume { inbox.changePauses(by: -1) }
    }

    private func cancelGroup(_ id: EffectID?, in state: inout State) {
        guard var group = state.groups[id] else { return }
        cancel(&group, in: &state)
        state.groups[id] = group
    }

    /// Cancels a group's work in flight (it leaves the group at once) and discards its waiting
    /// effects.
    private func cancel(_ group: inout Group, in state: inout State) {
        for (token, task) in group.running.values {
            token.cancel()
            task.cancel()
            counters.countEffectCancelled()
        }
        group.running.removeAll()
        counters.countEffectCancelled(group.waiting.count)
        state.waitingCount -= group.waiting.count
        group.waiting.removeAll()
    }

    /// Drops waiting effects down to `capacity` by the overflow policy; true when this starts
    /// an episode of dropping (logged once).
    private func shed(_ state: inout State) -> Bool {
        var excess = state.waitingCount - capacity
        let newestFirst = overflow == .dropNewest
        var ids = Array(state.groups.keys)
        if overflow == .latest { excess = state.waitingCount - 1 }
        while excess > 0, !ids.isEmpty {
            for id in ids {
                guard excess > 0, var group = state.groups[id], !group.waiting.isEmpty else { continue }
                if newestFirst { group.waiting.removeLast() } else { group.waiting.removeFirst() }
                state.groups[id] = group
                state.waitingCount -= 1
                excess -= 1
                counters.countMiddlewareDrop()
            }
            ids.removeAll { state.groups[$0]?.waiting.isEmpty ?? true }
        }
        defer { state.dropping = true }
        return !state.dropping
    }
}

extension WorkPolicy {
    /// The most pieces of work this policy runs at once in a group.
    var concurrency: Int {
        switch self {
        case .latest, .leading, .queue: return 1
        case .every(let maxConcurrent): return max(maxConcurrent, 1)
        }
    }
}
