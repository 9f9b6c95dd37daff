// snippet.hide
// The README's TestStore snippet, quoted verbatim; run inside a Swift Testing test, whose
// issues its checks record.
import Testing
// snippet.show
import Switchyard
import SwitchyardTesting

/// A stopwatch: running or not, and the seconds counted.
struct Stopwatch: Sendable, Equatable {
    var running = false
    var seconds = 0
}

enum StopwatchAction: Sendable, Equatable {
    case start, tick, stop
}

func stopwatchReducer(_ state: inout Stopwatch, _ action: StopwatchAction) {
    switch action {
    case .start: state.running = true
    case .tick: state.seconds += 1
    case .stop: state.running = false
    }
}

/// Ticks every second on `clock` from `.start` until `.stop`, which cancels the ticking.
func ticking(_ clock: ManualClock) -> Middleware<Stopwatch, StopwatchAction> {
    Middleware(effects: { _, action in
        switch action {
        case .start:
            return .run(id: "ticking", policy: .latest) { emit in
                while true {
                    try await clock.sleep(for: .seconds(1))
                    await emit(.tick)
                }
            }
        case .stop:
            return .cancel(id: "ticking")
        case .tick:
            return .none
        }
    })
}

// snippet.hide
/// Runs the snippet; call it from a test.
public func testingAStoreSnippet() async {
    // snippet.show
    // inside a Swift Testing test, `@Test func stopwatch() async`:
    let clock = ManualClock()
    let store = TestStore(initialState: Stopwatch(), reducer: stopwatchReducer,
                          middleware: [ticking(clock)], clock: clock)   // exhaustivity: .off to relax
    await store.send(.start) { $0.running = true }
    await store.advance(by: .seconds(1))
    await store.receive(.tick) { $0.seconds = 1 }
    await store.send(.stop) { $0.running = false }
    await store.finish()       // fails for unreceived actions and effects still running
    // snippet.hide
}
