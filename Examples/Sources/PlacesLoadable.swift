import Switchyard

/// Article 3 — nearby places for the user's location: a `Loadable` value in the state, a
/// middleware that fetches on each location change (`.latest`: a newer location cancels the
/// older fetch), and a location observer that reads the store.
public enum PlacesExample {
    /// A value that loads: what a screen shows as spinner, list or error.
    public enum Loadable<Value: Sendable & Equatable>: Sendable, Equatable {
        case idle
        case loading
        case loaded(Value)
        case failed(String)
    }

    public struct State: Sendable, Equatable {
        public var location: String?
        public var places: Loadable<[String]> = .idle

        public init(location: String? = nil, places: Loadable<[String]> = .idle) {
            self.location = location
            self.places = places
        }
    }

    public enum Action: Sendable, Equatable {
        case locationChanged(String)
        case placesLoaded([String])
        case placesFailed(String)
    }

    public static func reducer(_ state: inout State, _ action: Action) {
        switch action {
        case .locationChanged(let location):
            state.location = location
            state.places = .loading
        case .placesLoaded(let places): state.places = .loaded(places)
        case .placesFailed(let message): state.places = .failed(message)
        }
    }

    /// Fetches places for each new location with `lookUp`, cancelling the fetch it replaces.
    public static func fetchPlaces(
        _ lookUp: @escaping @Sendable (String) async throws -> [String]
    ) -> Middleware<State, Action> {
        Middleware(effects: { _, action in
            guard case .locationChanged(let location) = action else { return .none }
            return .run(id: "places", policy: .latest) { emit in
                do {
                    await emit(.placesLoaded(try await lookUp(location)))
                } catch is CancellationError {
                    return
                } catch {
                    await emit(.placesFailed(String(describing: error)))
                }
            }
        })
    }

    /// The location observer: every distinct `places` value the screen shows, until one is
    /// settled (loaded or failed).
    public static func observe(_ store: Store<State, Action>) async -> [Loadable<[String]>] {
        var shown: [Loadable<[String]>] = []
        for await places in store.states(of: \.places) {
            shown.append(places)
            if case .loaded = places { break }
            if case .failed = places { break }
        }
        return shown
    }
}
