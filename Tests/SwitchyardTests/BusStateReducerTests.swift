import Foundation
import Synchronization
import Testing
@testable import Switchyard
@testable import SwitchyardBus

/// The bus's state reducer and the types each slice follows, without a bus.
struct BusStateReducerTests {
    /// The types of the actions a slice was handed.
    private final class Calls: Sendable {
        private let types = Mutex<[String]>([])
        var all: [String] { types.withLock { $0 } }
        func append(_ type: String) { types.withLock { $0.append(type) } }
    }

    /// A slice that counts the actions it was handed, following `actions`.
    private func countingSlice(_ actions: TypePattern, calls: Calls) -> StateSlice {
        StateSlice(initial: ["seen": 0], actions: actions) { slice, action in
            calls.append(action.type)
            slice["seen"] = .integer(Int64((slice["seen"]?.intValue ?? 0) + 1))
        }
    }

    private func action(_ type: String, source: String = "test", payload: JSON = .null) -> BusAction {
        BusAction(type: type, payload: payload, source: source)
    }

    /// A slice is handed only the types it follows; one that follows all is handed every action.
    @Test func slicesSeeOnlyTheTypesTheyFollow() throws {
        let gpsCalls = Calls()
        let allCalls = Calls()
        let gps = countingSlice(try #require(TypePattern("gps/*")), calls: gpsCalls)
        let all = countingSlice(TypePattern.all, calls: allCalls)
        let table = SliceTable([("gps", gps), ("all", all)])
        let reduce = BusStateModel.reducer(table)
        var state = BusStateModel.initialState(table.current)
        for type in ["gps/fix", "load/n", "gps/status", "timer/tick"] { reduce(&state, action(type)) }
        #expect(gpsCalls.all == ["gps/fix", "gps/status"])
        #expect(allCalls.all == ["gps/fix", "load/n", "gps/status", "timer/tick"])
        #expect(state == ["gps": ["seen": 2], "all": ["seen": 4]])
    }

    /// An action no slice follows leaves the state as it was.
    @Test func anActionNoSliceFollowsChangesNothing() throws {
        let calls = Calls()
        let table = SliceTable([("gps", countingSlice(try #require(TypePattern("gps/fix")), calls: calls))])
        let reduce = BusStateModel.reducer(table)
        var state = BusStateModel.initialState(table.current)
        let before = state
        reduce(&state, action("gps/status"))
        #expect(state == before)
        #expect(calls.all.isEmpty)
    }

    /// A slice a reload added appears with its initial value on the bus's `bus/reloaded`
    /// action, which it does not follow, and the slices the reload dropped go.
    @Test func aReloadAddsAndDropsSlices() throws {
        let oldCalls = Calls()
        let newCalls = Calls()
        let old = countingSlice(try #require(TypePattern("old/*")), calls: oldCalls)
        let new = countingSlice(try #require(TypePattern("new/*")), calls: newCalls)
        let table = SliceTable([("old", old)])
        let reduce = BusStateModel.reducer(table)
        var state = BusStateModel.initialState(table.current)
        table.replace(with: [("new", new)])
        reduce(&state, action("other/thing"))
        #expect(state == ["old": ["seen": 0]])
        reduce(&state, action(BusStateModel.reloadedType, source: "bus", payload: ["droppedSlices": ["old"]]))
        #expect(state == ["new": ["seen": 0]])
        #expect(newCalls.all.isEmpty)
        reduce(&state, action("new/event"))
        #expect(state == ["new": ["seen": 1]])
        #expect(oldCalls.all.isEmpty)
    }
}
