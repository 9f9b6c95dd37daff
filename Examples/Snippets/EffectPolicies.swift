// snippet.hide
// The README's effect policies, quoted verbatim; `Places`, `PlacesAction` and `lookUp` are
// the typed store snippet's.
import Switchyard

/// The snippet's middleware.
func searchMiddleware() -> Middleware<Places, PlacesAction> {
    // snippet.show
    let search = Middleware<Places, PlacesAction>(effects: { state, action in
        switch action {
        case .search(let query):
            return .run(id: "search", policy: .latest) { emit in   // cancels the search in flight
                await emit(.loaded(try await lookUp(query)))
            }
        case .failed:
            return .cancel(id: "search")                            // from a later action
        case .loaded:
            return .none
        }
    })
    // snippet.hide
    return search
}

/// Runs the snippet's middleware in a store, searches for `query`, and returns the results
/// once loaded.
public func effectPoliciesSnippet(query: String) async -> [String] {
    let store = Store(initialState: Places(), reducer: { (state: inout Places, action: PlacesAction) in
        switch action {
        case .search(let query): state.query = query; state.status = "loading"
        case .loaded(let names): state.results = names; state.status = "loaded"
        case .failed: state.status = "failed"
        }
    }, middleware: [searchMiddleware()])
    await store.dispatch(.search(query))
    for await status in store.states(of: \.status) where status != "loading" { break }
    return store.currentState.results
}
