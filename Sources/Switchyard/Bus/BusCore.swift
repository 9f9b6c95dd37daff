import Foundation
import SwitchyardStreams

/// What every plugin context and runner of one bus share: the store, the router, the log, the
/// clock and the bus's name.
final class BusCore: Sendable {
    let store: Store<JSON, BusAction>
    let router: ActionRouter
    let log: LogSink
    let clock: any Clock<Duration>
    let busName: String

    init(store: Store<JSON, BusAction>, router: ActionRouter, log: LogSink, clock: any Clock<Duration>, busName: String) {
        self.store = store
        self.router = router
        self.log = log
        self.clock = clock
        self.busName = busName
    }

    func subscribe(_ subscription: ActionSubscription, owner: String?) -> PluginActions {
        router.subscribe(subscription, owner: owner)
    }

    /// Dispatches a lifecycle action from the bus itself and waits until it is reduced.
    func emit(_ type: String, payload: JSON = .null, cause: UInt64? = nil) async {
        await store.dispatch(BusAction(type: type, payload: payload, source: "bus", cause: cause))
    }
}

/// Builds the bus store: state is an object with one slice per plugin that keeps one.
enum BusStateReducer {
    static func initialState(_ slices: [(name: String, slice: StateSlice)]) -> JSON {
        .object(Dictionary(slices.map { ($0.name, $0.slice.initial) }, uniquingKeysWith: { first, _ in first }))
    }

    static func reducer(_ slices: [(name: String, slice: StateSlice)]) -> @Sendable (inout JSON, BusAction) -> Void {
        guard !slices.isEmpty else { return { _, _ in } }
        return { state, action in
            guard case .object(var members) = state else { return }
            // Release the enum's reference so each slice is mutated in place, not copied.
            state = .null
            for (name, slice) in slices {
                slice.reduce(&members[name, default: slice.initial], action)
            }
            state = .object(members)
        }
    }
}
