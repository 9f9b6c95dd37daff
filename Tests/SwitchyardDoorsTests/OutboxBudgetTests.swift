import Testing
@testable import Switchyard
@testable import SwitchyardBus
@testable import SwitchyardDoors

/// The bytes the outboxes of one server hold together: past the budget, only an outbox above
/// its floor is refused, and sent, dropped or closed bytes are given back.
struct OutboxBudgetTests {
    private let line = [UInt8](repeating: UInt8(ascii: "x"), count: 99) + [UInt8(ascii: "\n")]

    /// Fills `outbox` with lines until it refuses one; returns how many it took.
    private func fill(_ outbox: ConnectionOutbox, upTo limit: Int = 1000) -> Int {
        var taken = 0
        while taken < limit, outbox.append(line) == .queued { taken += 1 }
        return taken
    }

    /// A slow outbox takes the budget up; then another slow one is refused past its floor,
    /// while one under its floor (a client that keeps up) is still served.
    @Test func overTheBudgetOnlyOutboxesPastTheirFloorAreRefused() {
        let budget = OutboxBudget(limit: 1000, floor: 300)
        let slow = ConnectionOutbox(capacity: 10_000, budget: budget)
        #expect(fill(slow) == 10)
        #expect(budget.held == 1000)
        let other = ConnectionOutbox(capacity: 10_000, budget: budget)
        #expect(fill(other) == 3, "within its floor, whatever the total")
        #expect(other.append(line) == .overCapacity)
        #expect(budget.held == 1300)
        // Sending gives the sent bytes back; then the slow one takes more again.
        #expect(slow.flush { $0.count } == 1000)
        #expect(budget.held == 300)
        #expect(fill(slow) == 7)
    }

    /// Dropping or closing an outbox gives back what it held; replies are never counted.
    @Test func droppedAndClosedOutboxesGiveTheirBytesBack() {
        let budget = OutboxBudget(limit: 10_000, floor: 100)
        let dropped = ConnectionOutbox(capacity: 10_000, budget: budget)
        let closed = ConnectionOutbox(capacity: 10_000, budget: budget)
        #expect(fill(dropped, upTo: 20) == 20 && fill(closed, upTo: 30) == 30)
        #expect(budget.held == 5000)
        closed.appendReply(line)
        #expect(budget.held == 5000)
        #expect(dropped.drop(reason: "slow", line: []))
        #expect(budget.held == 3000)
        closed.close()
        #expect(budget.held == 0)
        // A capacity of its own still bounds each outbox.
        let small = ConnectionOutbox(capacity: 250, budget: budget)
        #expect(fill(small) == 2)
    }
}
