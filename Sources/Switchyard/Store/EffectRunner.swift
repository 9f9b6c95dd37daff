import Synchronization
import SwitchyardStreams

/// Runs one middleware's effects on the ``WorkPolicyStateMachine``: groups by ``EffectID``,
/// each arriving effect admitted by its ``WorkPolicy`` (start, wait, ignore, or cancel the
/// group's work first), waiting effects bounded by `capacity`.
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
        let body: @Sendable (_ emit: @escaping Effect<Action>.Emit) async throws -> Void
    }

    private struct State: Sendable {
        var machine = WorkPolicyStateMachine<EffectID?, Job>()
        var running: [Int: (token: EffectToken, task: Task<Void, Never>)] = [:]
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
                    let (cancelling, discarded) = state.machine.cancel(group: id)
                    cancel(cancelling, discarded: discarded.count, in: &state)
                case .run(let id, let policy, let body):
                    let job = Job(token: EffectToken(), body: body)
                    switch state.machine.submit(job, policy: policy, group: id) {
                    case .start(let jobID, let cancelling, let discarded):
                        cancel(cancelling, discarded: discarded.count, in: &state)
                        start(job, as: jobID, in: &state)
                    case .waiting:
                        break
                    case .ignored:
                        counters.countEffectsIgnored()
                    }
                }
            }
            let waiting = state.machine.waitingCount
            if waiting > capacity {
                if overflow == .suspendProducer {
                    if !state.pausing { state.pausing = true; pauseChange = 1 }
                } else {
                    let excess = overflow == .latest ? waiting - 1 : waiting - capacity
                    let shed = state.machine.shed(excess, newestFirst: overflow == .dropNewest)
                    for _ in shed { counters.countMiddlewareDrop() }
                    dropEpisodeStarted = !state.dropping
                    state.dropping = true
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
            let (cancelling, discarded) = state.machine.cancelAll()
            cancel(cancelling, discarded: discarded.count, in: &state)
            defer { state.pausing = false }
            return state.pausing
        }
        if resume { inbox.changePauses(by: -1) }
    }

    private func start(_ job: Job, as jobID: Int, in state: inout State) {
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
            self.finished(jobID)
            counters.countEffectFinished()
        }
        state.running[jobID] = (token, task)
        counters.countEffectStarted()
    }

    private func finished(_ jobID: Int) {
        var resume = false
        state.withLock { state in
            state.running[jobID] = nil
            for next in state.machine.finished(jobID) { start(next.job, as: next.id, in: &state) }
            let waiting = state.machine.waitingCount
            if waiting <= capacity, state.pausing {
                state.pausing = false
                resume = true
            }
            if waiting == 0 { state.dropping = false }
        }
        if resume { inbox.changePauses(by: -1) }
    }

    /// Cancels running work the machine let go of (it has left its group already) and counts
    /// the waiting work it discarded.
    private func cancel(_ jobIDs: [Int], discarded: Int, in state: inout State) {
        for jobID in jobIDs {
            guard let (token, task) = state.running.removeValue(forKey: jobID) else { continue }
            token.cancel()
            task.cancel()
            counters.countEffectCancelled()
        }
        counters.countEffectCancelled(discarded)
    }
}
