import Foundation
import SwitchyardStreams

extension Bus {
    /// The bus state: an object with one slice per plugin that keeps one.
    public nonisolated var currentState: JSON { core.store.currentState }

    /// The bus state first, then each new state (coalesced for a slow consumer).
    public nonisolated var states: Broadcast<JSON>.Subscription { core.store.states }

    /// Reduced actions matching `pattern`, from now on. Defaults: every action, a buffer of
    /// 1024, ``OverflowPolicy/suspendProducer`` (lossless; the bus waits for this consumer).
    public nonisolated func actions(
        matching pattern: TypePattern = .all,
        bufferSize: Int = 1024,
        overflow: OverflowPolicy = .suspendProducer
    ) -> PluginActions {
        core.subscribe(ActionSubscription(pattern, bufferSize: bufferSize, overflow: overflow), owner: nil)
    }

    /// Enqueues an action without waiting; `false` when the inbox is full or the bus stopped.
    @discardableResult
    public nonisolated func send(_ action: BusAction) -> Bool {
        core.store.send(action)
    }

    /// Enqueues an action, waiting for room, and returns once it has been reduced (and, with
    /// a journal, appended to it).
    public nonisolated func dispatch(_ action: BusAction) async {
        await core.store.dispatch(action)
    }

    /// Dispatches an action as ``dispatch(_:)`` does and returns the sequence number the bus
    /// gave it, once it is reduced (and journaled); `nil` when the bus is stopped and did not
    /// take it, or when the journal failed to write it (then the bus stops). Waiting for room
    /// in the inbox is not cancelled with the task.
    @discardableResult
    public nonisolated func dispatchReturningID(_ action: BusAction) async -> UInt64? {
        await withCheckedContinuation { continuation in
            Bus.submit(action, to: core, tickets: tickets) { continuation.resume(returning: $0.sequence) }
        }
    }

    /// Hands `action` to the store without waiting and calls `completion` with its sequence
    /// number once it is reduced, journaled and published, or with why not (the store is
    /// closed, the journal failed). Only when the inbox is full does a task wait for room; then it returns `false`.
    @discardableResult
    static func submit(_ action: BusAction, to core: BusCore, tickets: DispatchTickets,
                       completion: @escaping DispatchTickets.Completion) -> Bool {
        var ticketed = action
        ticketed.id = tickets.issue(completion)
        guard !core.store.send(ticketed) else { return true }
        Task {
            if await !core.store.enqueue(ticketed) { tickets.refuse(ticketed.id) }
        }
        return false
    }

    /// Counters of the store, every plugin, the control socket and the journal.
    public nonisolated var statistics: BusStatistics {
        let configuration = configuration
        return BusStatistics(
            name: configuration.bus.name,
            uptime: ContinuousClock.now - startedAt,
            actionsPerSecond: rate.perSecond,
            store: core.store.statistics,
            inboxCapacity: configuration.bus.inboxCapacity,
            plugins: runners.map(\.statistics),
            control: storage?.controlStatistics,
            journal: storage?.journal?.statistics
        )
    }

    nonisolated func controlBackend() -> ControlBackend {
        ControlBackend(
            dispatch: { [core, tickets] action, completion in Bus.submit(action, to: core, tickets: tickets, completion: completion) },
            state: { [core] in core.store.currentState },
            actions: { [core] pattern, bufferSize in
                core.subscribe(ActionSubscription(pattern, bufferSize: bufferSize, overflow: .dropNewest), owner: nil)
            },
            states: { [core] in core.store.states },
            statistics: { [weak self] in self?.statistics.json ?? .null }
        )
    }
}
