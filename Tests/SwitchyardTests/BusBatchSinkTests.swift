import Foundation
import Testing
@testable import Switchyard
@testable import SwitchyardBus

/// The bus's end of its store's batches, on a store of its own: ids and one time per batch
/// stamped (a replayed action keeps its recorded time), no commit without a journal, then the
/// batch counted and routed.
struct BusBatchSinkTests {
    @Test func stampsCountsAndRoutesABatch() async {
        let router = ActionRouter()
        let counters = BusCounters()
        let routed = router.subscribe(ActionSubscription(.all), owner: "reader")
        let store = Store<JSON, BusAction>(initialState: .object([:]), reducer: { _, _ in }, middleware: [],
                                           options: StoreOptions(), firstSequence: 41)
        let recordedTime = Date(timeIntervalSince1970: 1_700_000_000)
        var replayed = BusAction(type: "ping/old", source: "control")
        replayed.time = recordedTime
        replayed.keepsTime = true
        #expect(store.send(contentsOf: [BusAction(type: "ping/a", source: "control"), replayed,
                                        BusAction(type: "ping/b", source: "timer")]) == 3)
        store.startDrainer(into: BusBatchSink(journal: nil, router: router, counters: counters))
        var actions: [BusAction] = []
        for await action in routed {
            actions.append(action)
            if actions.count == 3 { break }
        }
        #expect(actions.map(\.id) == [41, 42, 43])
        #expect(actions[1].time == recordedTime)
        #expect(actions[0].time == actions[2].time, "one clock read per batch")
        #expect(actions[0].time > recordedTime)
        #expect(counters.emitted(by: "control") == 2)
        #expect(counters.emitted(by: "timer") == 1)
        #expect(store.nextSequence == 44)
        store.close()
    }
}
