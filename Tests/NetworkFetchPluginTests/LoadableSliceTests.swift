import Foundation
import SwitchyardBus
import Testing

@testable import NetworkFetchPlugin

/// The loadable slice reducer: states, and the guard against late results.
struct LoadableSliceTests {
    private let reducer = LoadableSlice(source: "places", prefix: "places")
    private let time = Date(timeIntervalSince1970: 1_700_000_000)

    private func action(_ event: String, _ payload: JSON, source: String = "places", type: String? = nil) -> BusAction {
        BusAction(type: type ?? "places/\(event)", payload: payload, id: 1, time: time, source: source, cause: nil)
    }

    private func reduced(_ actions: [BusAction]) -> JSON {
        var slice = LoadableSlice.initial
        for action in actions { reducer.reduce(&slice, action) }
        return slice
    }

    /// The slice starts idle with nothing loaded.
    @Test func startsIdle() {
        #expect(LoadableSlice.initial == ["status": "idle", "value": nil, "error": nil, "updatedAt": nil, "requestId": nil])
    }

    /// loading then loaded gives the value, with the time of the action.
    @Test func loadsAValue() {
        let slice = reduced([action("loading", ["requestId": 1]), action("loaded", ["requestId": 1, "value": [1, 2]])])
        #expect(slice == ["status": "loaded", "value": [1, 2], "error": nil, "updatedAt": "2023-11-14T22:13:20.000Z", "requestId": 1])
    }

    /// A failure keeps the last value and records the error.
    @Test func failureKeepsTheLastValue() {
        let slice = reduced([
            action("loading", ["requestId": 1]), action("loaded", ["requestId": 1, "value": "old"]),
            action("loading", ["requestId": 2]),
            action("failed", ["requestId": 2, "kind": "http", "status": 503, "message": "HTTP 503", "attempts": 3, "elapsedMs": 9]),
        ])
        #expect(slice["status"] == "failed")
        #expect(slice["value"] == "old")
        #expect(slice["error"] == ["kind": "http", "status": 503, "message": "HTTP 503", "attempts": 3])
        #expect(slice["requestId"] == 2)
    }

    /// A result for a request that is no longer the current one never changes the state.
    @Test(arguments: ["loaded", "failed"])
    func ignoresLateResults(event: String) {
        let slice = reduced([
            action("loading", ["requestId": 1]), action("loading", ["requestId": 2]),
            action(event, ["requestId": 1, "value": "stale", "kind": "network", "message": "late"]),
        ])
        #expect(slice["status"] == "loading")
        #expect(slice["value"] == .null)
        #expect(slice["error"] == .null)
        #expect(slice["requestId"] == 2)
    }

    /// A new loading clears the previous error but keeps the value for display.
    @Test func loadingClearsTheError() {
        let slice = reduced([
            action("loading", ["requestId": 1]), action("loaded", ["requestId": 1, "value": 7]),
            action("loading", ["requestId": 2]), action("failed", ["requestId": 2, "kind": "timeout"]),
            action("loading", ["requestId": 3]),
        ])
        #expect(slice["status"] == "loading")
        #expect(slice["error"] == .null)
        #expect(slice["value"] == 7)
    }

    /// Actions from other sources, other prefixes, unknown events or without a request id
    /// are ignored.
    @Test func ignoresForeignActions() {
        let ignored = [
            action("loading", ["requestId": 1], source: "control"),
            action("loading", ["requestId": 1], type: "placesx/loading"),
            action("loading", ["requestId": 1], type: "other/loading"),
            action("reset", ["requestId": 1]),
            action("loading", ["id": 1]),
            action("loading", ["requestId": 1], type: "places"),
        ]
        #expect(reduced(ignored) == LoadableSlice.initial)
    }

    /// With an `emit` prefix, the slice follows the prefixed actions of its own plugin.
    @Test func followsTheEmitPrefix() {
        let rates = LoadableSlice(source: "currency", prefix: "rates")
        var slice = LoadableSlice.initial
        rates.reduce(&slice, BusAction(type: "rates/loading", payload: ["requestId": 4], id: 1, time: time, source: "currency", cause: nil))
        rates.reduce(&slice, BusAction(type: "rates/loaded", payload: ["requestId": 4, "value": 1], id: 2, time: time, source: "currency", cause: nil))
        #expect(slice["status"] == "loaded")
    }
}
