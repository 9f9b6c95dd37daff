import Testing

@testable import Switchyard
@testable import SwitchyardBus

/// The one policy state machine behind effects, `forEach(policy:)` and network-fetch, driven
/// step by step without tasks or clocks.
struct WorkPolicyStateMachineTests {
    private typealias Machine = WorkPolicyStateMachine<String, String>

    /// The id a `start` admission carries, or nil.
    private static func started(_ admission: Machine.Admission) -> Int? {
        if case .start(let id, _, _) = admission { return id }
        return nil
    }

    /// `latest` always starts, cancelling the work it supersedes and discarding what waits.
    @Test func latestSupersedes() {
        var machine = Machine()
        #expect(Self.started(machine.submit("a", policy: .queue, group: "g")) == 0)
        guard case .waiting(let waiting) = machine.submit("b", policy: .queue, group: "g") else {
            Issue.record("queue did not wait behind running work")
            return
        }
        guard case .start(let id, let cancelling, let discarded) = machine.submit("c", policy: .latest, group: "g") else {
            Issue.record("latest did not start")
            return
        }
        #expect(cancelling == [0])
        #expect(discarded.map(\.id) == [waiting] && discarded.map(\.job) == ["b"])
        #expect(machine.running(in: "g") == [id])
        #expect(machine.waitingCount == 0)
        #expect(machine.finished(0).isEmpty)
        #expect(machine.running(in: "g") == [id])
    }

    /// `every(maxConcurrent:)` starts up to its limit, then waits; a finish starts the oldest
    /// waiting work.
    @Test func everyWaitsAtTheLimit() {
        var machine = Machine()
        #expect(Self.started(machine.submit("a", policy: .every(maxConcurrent: 2), group: "g")) == 0)
        #expect(Self.started(machine.submit("b", policy: .every(maxConcurrent: 2), group: "g")) == 1)
        #expect(!machine.hasFreeSlot(in: "g", policy: .every(maxConcurrent: 2)))
        guard case .waiting(let c) = machine.submit("c", policy: .every(maxConcurrent: 2), group: "g"),
              case .waiting(let d) = machine.submit("d", policy: .every(maxConcurrent: 2), group: "g") else {
            Issue.record("every did not wait at its limit")
            return
        }
        let starts = machine.finished(0)
        #expect(starts.map(\.id) == [c] && starts.map(\.job) == ["c"])
        #expect(machine.running(in: "g") == [1, c])
        #expect(machine.finished(c).map(\.id) == [d])
        #expect(machine.waitingCount == 0)
    }

    /// `leading` is ignored while its group runs or has work waiting, and starts once idle.
    @Test func leadingIgnoredWhileBusy() {
        var machine = Machine()
        #expect(Self.started(machine.submit("a", policy: .leading, group: "g")) == 0)
        guard case .ignored = machine.submit("b", policy: .leading, group: "g") else {
            Issue.record("leading ran while busy")
            return
        }
        #expect(machine.finished(0).isEmpty)
        #expect(machine.hasFreeSlot(in: "g", policy: .leading))
        #expect(Self.started(machine.submit("c", policy: .leading, group: "g")) != nil)
    }

    /// `queue` runs one at a time in arrival order; groups never wait for each other.
    @Test func queueRunsOneAtATimePerGroup() {
        var machine = Machine()
        #expect(Self.started(machine.submit("a", policy: .queue, group: "g")) == 0)
        #expect(Self.started(machine.submit("x", policy: .queue, group: "h")) == 1)
        guard case .waiting(let b) = machine.submit("b", policy: .queue, group: "g") else {
            Issue.record("queue did not wait")
            return
        }
        #expect(machine.finished(1).isEmpty)
        #expect(machine.finished(0).map(\.id) == [b])
    }

    /// Cancelling a group lets go of its running work and discards its waiting work; other
    /// groups and unknown finishes are untouched.
    @Test func cancelByGroup() {
        var machine = Machine()
        _ = machine.submit("a", policy: .queue, group: "g")
        _ = machine.submit("b", policy: .queue, group: "g")
        _ = machine.submit("x", policy: .queue, group: "h")
        let (cancelling, discarded) = machine.cancel(group: "g")
        #expect(cancelling == [0])
        #expect(discarded.map(\.job) == ["b"])
        #expect(machine.waitingCount == 0)
        #expect(machine.finished(0).isEmpty)
        #expect(machine.finished(99).isEmpty)
        #expect(machine.running(in: "h") == [2])
        #expect(Self.started(machine.submit("c", policy: .queue, group: "g")) != nil)
        let running = machine.running(in: "g") + machine.running(in: "h")
        let all = machine.cancelAll()
        #expect(Set(running) == [2, 3])
        #expect(Set(all.cancelling) == [2, 3])
        #expect(machine.running(in: "g").isEmpty && machine.running(in: "h").isEmpty)
    }

    /// Shedding takes waiting work from each group in turn, oldest or newest first.
    @Test(arguments: [false, true])
    func shedTakesGroupsInTurn(newestFirst: Bool) {
        var machine = Machine()
        for group in ["g", "h"] {
            _ = machine.submit("\(group)0", policy: .queue, group: group)
            for index in 1...3 { _ = machine.submit("\(group)\(index)", policy: .queue, group: group) }
        }
        #expect(machine.waitingCount == 6)
        let shed = machine.shed(4, newestFirst: newestFirst)
        #expect(shed.count == 4)
        #expect(machine.waitingCount == 2)
        let expected: Set<String> = newestFirst ? ["g3", "g2", "h3", "h2"] : ["g1", "g2", "h1", "h2"]
        #expect(Set(shed) == expected)
    }

    /// A debounced job is admitted only when its quiet time ends and no newer job replaced it.
    @Test func debounceKeepsTheNewest() {
        var machine = Machine()
        let first = machine.debounce("a", policy: .latest, group: "g")
        #expect(first.replaced == nil)
        let second = machine.debounce("b", policy: .latest, group: "g")
        #expect(second.replaced == "a")
        #expect(machine.quietPeriodEnded(first.ticket).map { $0.job } == nil)
        guard let (job, admission) = machine.quietPeriodEnded(second.ticket), case .start = admission else {
            Issue.record("the newest debounced job was not admitted")
            return
        }
        #expect(job == "b")
        #expect(machine.quietPeriodEnded(second.ticket).map { $0.job } == nil)
        let third = machine.debounce("c", policy: .queue, group: "g")
        #expect(machine.cancel(group: "g").discarded.map(\.job) == ["c"])
        #expect(machine.quietPeriodEnded(third.ticket).map { $0.job } == nil)
    }
}
