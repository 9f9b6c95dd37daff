import Switchyard

/// Article 1 — a user's location kept in one shared store, with middleware: raw positions come
/// in, a middleware turns those that moved far enough into `significantChange`, and every
/// screen observes the part of the state it shows.
public enum LocationStoreExample {
    public struct Location: Sendable, Equatable {
        public var latitude: Double
        public var longitude: Double

        public init(latitude: Double, longitude: Double) {
            self.latitude = latitude
            self.longitude = longitude
        }
    }

    public struct State: Sendable, Equatable {
        public var current: Location?
        public var significant: [Location] = []

        public init(current: Location? = nil, significant: [Location] = []) {
            self.current = current
            self.significant = significant
        }
    }

    public enum Action: Sendable, Equatable {
        case positionReceived(Location)
        case significantChange(Location)
    }

    public static func reducer(_ state: inout State, _ action: Action) {
        switch action {
        case .positionReceived(let location): state.current = location
        case .significantChange(let location): state.significant.append(location)
        }
    }

    /// Emits `significantChange` when a position is more than `degrees` away from the last
    /// significant one (a flat-earth stand-in for a distance filter).
    public static func significantChanges(degrees: Double) -> Middleware<State, Action> {
        Middleware(effects: { state, action in
            guard case .positionReceived(let location) = action else { return .none }
            let last = state.significant.last
            let moved = last.map { abs($0.latitude - location.latitude) + abs($0.longitude - location.longitude) } ?? .infinity
            return moved > degrees ? .send(.significantChange(location)) : .none
        })
    }

    /// Feeds `positions` through the store and returns what a "map screen" observing
    /// `significant` saw last.
    public static func run(positions: [Location], degrees: Double = 0.01) async -> [Location] {
        let store = Store(initialState: State(), reducer: reducer, middleware: [significantChanges(degrees: degrees)])
        for position in positions {
            await store.dispatch(.positionReceived(position))
            // A receiver reports about once a second: by the next fix the middleware's
            // emission is queued, so the next decision sees it.
            while store.statistics.effectsInFlight > 0 { await Task.yield() }
        }
        // Receivers repeat their last fix; reducing it means everything before it was reduced.
        if let last = positions.last { await store.dispatch(.positionReceived(last)) }
        return store.currentState.significant
    }
}
