// snippet.hide
// The README's typed store with middleware, quoted verbatim.
// snippet.show
import Switchyard

struct Places: Sendable, Equatable {
    var query = ""
    var status = "idle"
    var results: [String] = []
}

enum PlacesAction: Sendable {
    case search(String)
    case loaded([String])
    case failed(String)
}

// snippet.hide
/// The API call the README leaves to the reader: two places named after the query.
func lookUp(_ query: String) async throws -> [String] {
    ["\(query) house", "\(query) corner"]
}

/// Runs the snippet, printing into `output`; returns the results the store ended with.
public func typedStoreSnippet(_ output: Printed) async -> [String] {
    @Sendable func print(_ items: Any...) { output.append(items) }
    // snippet.show
    let fetchPlaces = Middleware<Places, PlacesAction>(effect: { state, action, emit in
        guard case .search(let query) = action else { return }
        do {
            let names = try await lookUp(query)          // your async API call
            await emit(.loaded(names))
        } catch {
            await emit(.failed(String(describing: error)))
        }
    })

    let store = Store(initialState: Places(), reducer: { (state: inout Places, action: PlacesAction) in
        switch action {
        case .search(let query): state.query = query; state.status = "loading"
        case .loaded(let names): state.results = names; state.status = "loaded"
        case .failed: state.status = "failed"
        }
    }, middleware: [fetchPlaces])

    await store.dispatch(.search("coffee"))
    for await status in store.states(of: \.status) {   // current value first, repeats dropped
        print("status:", status)
        if status != "loading" { break }                // loaded or failed
    }
    // snippet.hide
    return store.currentState.results
}
