/// The one decision-maker for work under a ``WorkPolicy``: the store's effects, the bus's
/// ``_Concurrency/AsyncSequence/forEach(policy:_:)`` and network-fetch all run on it.
///
/// Pure: it owns no tasks and no clock. Work is grouped by `Group` (the store's ``EffectID``;
/// one group for a sequence), and the policy of each arriving piece of work decides against its
/// group: ``WorkPolicy/latest`` supersedes everything in flight or waiting, ``WorkPolicy/leading``
/// is ignored while the group is busy, ``WorkPolicy/queue`` and ``WorkPolicy/every(maxConcurrent:)``
/// start while the group has a free slot and otherwise wait in arrival order. A driver starts a
/// task for every `start` it is told about, cancels every id it is told to, and reports each
/// task's end with ``finished(_:)``, which hands back the waiting work that may start now.
///
/// A debounce sits in front of the policy: ``debounce(_:policy:group:)`` keeps only the newest
/// piece of work per group and returns a ticket; the driver waits out the quiet time on its own
/// clock and calls ``quietPeriodEnded(_:)`` with it, which admits the work unless a newer one
/// replaced it meanwhile.
package struct WorkPolicyStateMachine<Group: Hashable & Sendable, Job: Sendable>: Sendable {
    /// What became of a piece of work that arrived.
    package enum Admission: Sendable {
        /// Start it now as `id`, after cancelling the running work `cancelling`; `discarded` is
        /// the group's waiting work that `.latest` superseded (never started).
        case start(id: Int, cancelling: [Int], discarded: [(id: Int, job: Job)])
        /// Every slot of the group is taken: it waits as `id` until ``finished(_:)`` starts it.
        case waiting(id: Int)
        /// The group is busy and the policy is `.leading`: nothing runs.
        case ignored
    }

    /// Waiting work that may start now, with the id it was admitted under.
    package struct Start: Sendable {
        package let id: Int
        package let job: Job
    }

    private struct Waiting: Sendable {
        let id: Int
        let job: Job
        let policy: WorkPolicy
    }

    private struct GroupState: Sendable {
        var running: [Int] = []
        var waiting: [Waiting] = []
        var isIdle: Bool { running.isEmpty && waiting.isEmpty }
    }

    private struct Debounced: Sendable {
        let ticket: Int
        let job: Job
        let policy: WorkPolicy
    }

    private var groups: [Group: GroupState] = [:]
    private var groupOfRunning: [Int: Group] = [:]
    private var debounced: [Group: Debounced] = [:]
    private var nextID = 0
    /// Waiting work across all groups.
    package private(set) var waitingCount = 0

    package init() {}

    /// The ids of the work running in `group`, oldest first.
    package func running(in group: Group) -> [Int] { groups[group]?.running ?? [] }

    /// Whether work arriving in `group` under `policy` would start at once.
    package func hasFreeSlot(in group: Group, policy: WorkPolicy) -> Bool {
        let state = groups[group] ?? GroupState()
        switch policy {
        case .latest: return true
        case .leading: return state.isIdle
        case .queue, .every: return state.waiting.isEmpty && state.running.count < policy.concurrency
        }
    }

    /// Admits `job`, which arrived in `group` under `policy`.
    package mutating func submit(_ job: Job, policy: WorkPolicy, group: Group) -> Admission {
        var state = groups[group] ?? GroupState()
        defer { groups[group] = state.isIdle ? nil : state }
        switch policy {
        case .latest:
            let cancelling = state.running
            for id in cancelling { groupOfRunning[id] = nil }
            let discarded = state.waiting.map { (id: $0.id, job: $0.job) }
            waitingCount -= state.waiting.count
            state = GroupState()
            return .start(id: begin(in: group, &state), cancelling: cancelling, discarded: discarded)
        case .leading:
            guard state.isIdle else { return .ignored }
            return .start(id: begin(in: group, &state), cancelling: [], discarded: [])
        case .queue, .every:
            guard state.waiting.isEmpty, state.running.count < policy.concurrency else {
                let id = allocate()
                state.waiting.append(Waiting(id: id, job: job, policy: policy))
                waitingCount += 1
                return .waiting(id: id)
            }
            return .start(id: begin(in: group, &state), cancelling: [], discarded: [])
        }
    }

    /// Records that work `id` ended (finished, failed or cancelled) and returns the waiting work
    /// of its group that starts now, in arrival order; an id that was cancelled or is unknown
    /// frees nothing.
    package mutating func finished(_ id: Int) -> [Start] {
        guard let group = groupOfRunning.removeValue(forKey: id), var state = groups[group] else { return [] }
        defer { groups[group] = state.isIdle ? nil : state }
        state.running.removeAll { $0 == id }
        var starts: [Start] = []
        while let next = state.waiting.first, state.running.count < next.policy.concurrency {
            state.waiting.removeFirst()
            waitingCount -= 1
            state.running.append(next.id)
            groupOfRunning[next.id] = group
            starts.append(Start(id: next.id, job: next.job))
        }
        return starts
    }

    /// Cancels `group`: its running work leaves it at once (the driver cancels those ids) and its
    /// waiting and debounced work is discarded.
    package mutating func cancel(group: Group) -> (cancelling: [Int], discarded: [(id: Int, job: Job)]) {
        var discarded: [(id: Int, job: Job)] = []
        if let pending = debounced.removeValue(forKey: group) { discarded.append((pending.ticket, pending.job)) }
        guard let state = groups.removeValue(forKey: group) else { return ([], discarded) }
        for id in state.running { groupOfRunning[id] = nil }
        waitingCount -= state.waiting.count
        discarded += state.waiting.map { (id: $0.id, job: $0.job) }
        return (state.running, discarded)
    }

    /// Cancels every group, as ``cancel(group:)`` does.
    package mutating func cancelAll() -> (cancelling: [Int], discarded: [(id: Int, job: Job)]) {
        var cancelling: [Int] = []
        var discarded: [(id: Int, job: Job)] = []
        for group in Set(groups.keys).union(debounced.keys) {
            let (running, dropped) = cancel(group: group)
            cancelling += running
            discarded += dropped
        }
        return (cancelling, discarded)
    }

    /// Discards `excess` waiting pieces of work, taking one group at a time in turn, the newest
    /// of each group first when `newestFirst`, else the oldest; returns what it discarded.
    package mutating func shed(_ excess: Int, newestFirst: Bool) -> [Job] {
        var shed: [Job] = []
        var keys = groups.keys.filter { !(groups[$0]?.waiting.isEmpty ?? true) }
        while shed.count < excess, !keys.isEmpty {
            for key in keys where shed.count < excess {
                guard var state = groups[key], !state.waiting.isEmpty else { continue }
                shed.append((newestFirst ? state.waiting.removeLast() : state.waiting.removeFirst()).job)
                waitingCount -= 1
                groups[key] = state.isIdle ? nil : state
            }
            keys.removeAll { groups[$0]?.waiting.isEmpty ?? true }
        }
        return shed
    }

    // MARK: Debounce

    /// Holds `job` as the newest of `group` until its quiet time is over; returns its ticket and
    /// the job it replaced (dropped, never admitted).
    package mutating func debounce(_ job: Job, policy: WorkPolicy, group: Group) -> (ticket: Int, replaced: Job?) {
        let ticket = allocate()
        let replaced = debounced.updateValue(Debounced(ticket: ticket, job: job, policy: policy), forKey: group)
        return (ticket, replaced?.job)
    }

    /// The quiet time of `ticket` is over: admits its job as ``submit(_:policy:group:)`` does,
    /// or returns nil when a newer job replaced it or its group was cancelled.
    package mutating func quietPeriodEnded(_ ticket: Int) -> (job: Job, admission: Admission)? {
        guard let (group, pending) = debounced.first(where: { $0.value.ticket == ticket }) else { return nil }
        debounced[group] = nil
        return (pending.job, submit(pending.job, policy: pending.policy, group: group))
    }

    private mutating func begin(in group: Group, _ state: inout GroupState) -> Int {
        let id = allocate()
        state.running.append(id)
        groupOfRunning[id] = group
        return id
    }

    private mutating func allocate() -> Int {
        defer { nextID += 1 }
        return nextID
    }
}
