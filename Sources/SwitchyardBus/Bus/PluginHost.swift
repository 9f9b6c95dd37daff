/// What every plugin context and runner of one bus share: the store, the router, the log, the
/// clock, the bus's name (as it started; a reload keeps it), the state slices and the counters.
package final class PluginHost: Sendable {
    package let store: Store<JSON, BusAction>
    package let router: ActionRouter
    package let log: LogSink
    let clock: any Clock<Duration>
    let busName: String
    let slices: SliceTable
    package let counters: BusCounters
    /// The counters plugins report themselves.
    let reporters = PluginReporters()
    /// The journal plugins may read; `nil` when the bus keeps none.
    let journal: PluginJournal?

    init(store: Store<JSON, BusAction>, router: ActionRouter, log: LogSink, clock: any Clock<Duration>,
         busName: String, slices: SliceTable, counters: BusCounters, journal: PluginJournal? = nil) {
        self.store = store
        self.router = router
        self.log = log
        self.clock = clock
        self.busName = busName
        self.slices = slices
        self.counters = counters
        self.journal = journal
    }

    func subscribe(_ subscription: ActionSubscription, owner: String?) -> PluginActions {
        router.subscribe(subscription, owner: owner)
    }

    /// Dispatches a lifecycle action from the bus itself and waits until it is reduced.
    func emit(_ type: String, payload: JSON = .null, cause: UInt64? = nil) async {
        await store.dispatch(BusAction(type: type, payload: payload, source: "bus", cause: cause))
    }
}
