import Foundation
import Switchyard
import Testing

// The README's examples, kept compiling and working here.

private struct Places: Sendable, Equatable {
    var query = ""
    var status = "idle"
    var results: [String] = []
}

private enum PlacesAction: Sendable {
    case search(String)
    case loaded([String])
    case failed(String)
}

private func lookUp(_ query: String) async throws -> [String] {
    ["\(query) house", "\(query) corner"]
}

/// Emits `NAME/beat` every `every` seconds.
private struct Heartbeat: Plugin {
    static let kind = "heartbeat"
    static let summary = "Emits NAME/beat periodically."
    static let settingDescriptions = [SettingDescription("every", "number of seconds > 0", default: "1", "Time between beats.")]

    let every: Duration

    init(name: String, settings: PluginSettings) throws {
        every = settings.seconds("every", default: .seconds(1), range: 0.01...3600)
        try settings.finish()
    }

    func run(context: PluginContext) async throws {
        while !Task.isCancelled {
            try await context.sleep(for: every)
            await context.dispatch("\(context.name)/beat")
        }
    }
}

struct ReadmeExamplesTests {
    /// The opening snippet: send, dispatch, current state.
    @Test func openingSnippet() async {
        let store = Store(initialState: 0) { (count: inout Int, action: Int) in count += action }
        store.send(2)
        await store.dispatch(3)
        #expect(store.currentState == 5)
    }

    /// The typed store with middleware reaches "loaded" with the middleware's results.
    @Test func storeWithMiddleware() async {
        let fetchPlaces = Middleware<Places, PlacesAction>(effect: { state, action, emit in
            guard case .search(let query) = action else { return }
            do {
                let names = try await lookUp(query)
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
        let statuses = Task {
            var seen: [String] = []
            for await status in store.states(of: \.status) {
                seen.append(status)
                if status == "loaded" { break }
            }
            return seen
        }
        await store.dispatch(.search("coffee"))
        #expect(await statuses.value.last == "loaded")
        #expect(store.currentState.results == ["coffee house", "coffee corner"])
    }

    /// The embedded bus with its own plugin kind emits beats.
    @Test func embeddedBusWithOwnPlugin() async throws {
        var registry = PluginRegistry()
        registry.register(Heartbeat.self)
        let configuration = try BusConfiguration.parse("""
            {"plugins": [{"name": "pulse", "kind": "heartbeat", "every": 0.01}]}
            """, file: "inline.json", environment: ProcessInfo.processInfo.environment, registry: registry)
        let bus = try Bus(configuration: configuration, registry: registry, log: LogSink(minimumLevel: .error))
        let beats = bus.actions(matching: TypePattern("pulse/*")!)
        let running = Task { try await bus.run() }
        var count = 0
        for await action in beats where action.type == "pulse/beat" {
            count += 1
            if count == 3 { break }
        }
        #expect(count == 3)
        bus.stop()
        try await running.value
    }
}
