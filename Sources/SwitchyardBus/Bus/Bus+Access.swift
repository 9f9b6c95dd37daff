import FoundationEssentials
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
            core.store.submit(action) { continuation.resume(returning: $0.sequence) }
        }
    }

    /// Counters of the store, every plugin, the journal and the services (the doors).
    public nonisolated var statistics: BusStatistics {
        let configuration = configuration
        var statistics = BusStatistics(
            name: configuration.bus.name,
            uptime: ContinuousClock.now - startedAt,
            actionsPerSecond: rate.perSecond,
            store: core.store.statistics,
            inboxCapacity: configuration.bus.inboxCapacity,
            plugins: runners.map(\.statistics),
            control: nil,
            journal: directory?.journal?.statistics,
            abandonedPlugins: core.counters.abandoned
        )
        for service in serving { service.report(into: &statistics) }
        return statistics
    }
}

extension Bus {
    /// The credentials this bus's configurations took from the environment, which it keeps out
    /// of what it writes about its configuration (see ``Secrets``).
    public nonisolated var secrets: Secrets { core.log.secrets }
}
