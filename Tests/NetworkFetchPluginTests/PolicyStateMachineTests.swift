import Switchyard
import Testing

@testable import NetworkFetchPlugin

/// The pure decision per trigger for each policy.
struct PolicyStateMachineTests {
    /// `latest` always starts, cancelling the work it supersedes.
    @Test func latestSupersedes() {
        var machine = PolicyStateMachine(policy: .latest)
        #expect(machine.trigger() == .start(id: 0, cancelling: nil))
        #expect(machine.trigger() == .start(id: 1, cancelling: 0))
        machine.finished(0)
        #expect(machine.active == [1])
        machine.finished(1)
        #expect(machine.trigger() == .start(id: 2, cancelling: nil))
    }

    /// `every` starts up to its limit, then waits until work finishes.
    @Test func everyWaitsAtTheLimit() {
        var machine = PolicyStateMachine(policy: .every(maxConcurrent: 2))
        #expect(machine.trigger() == .start(id: 0, cancelling: nil))
        #expect(machine.trigger() == .start(id: 1, cancelling: nil))
        #expect(machine.trigger() == .wait)
        #expect(!machine.hasFreeSlot)
        machine.finished(0)
        #expect(machine.hasFreeSlot)
        #expect(machine.trigger() == .start(id: 2, cancelling: nil))
        #expect(machine.active == [1, 2])
    }

    /// `leading` drops triggers while busy.
    @Test func leadingDropsWhileBusy() {
        var machine = PolicyStateMachine(policy: .leading)
        #expect(machine.trigger() == .start(id: 0, cancelling: nil))
        #expect(machine.trigger() == .drop)
        #expect(machine.trigger() == .drop)
        machine.finished(0)
        #expect(machine.trigger() == .start(id: 1, cancelling: nil))
    }

    /// `queue` runs one at a time and waits otherwise.
    @Test func queueRunsOneAtATime() {
        var machine = PolicyStateMachine(policy: .queue)
        #expect(machine.trigger() == .start(id: 0, cancelling: nil))
        #expect(machine.trigger() == .wait)
        machine.finished(0)
        #expect(machine.trigger() == .start(id: 1, cancelling: nil))
    }

    /// Finishing unknown or already finished work changes nothing.
    @Test func ignoresUnknownFinishes() {
        var machine = PolicyStateMachine(policy: .every(maxConcurrent: 1))
        #expect(machine.trigger() == .start(id: 0, cancelling: nil))
        machine.finished(7)
        #expect(machine.trigger() == .wait)
    }
}
