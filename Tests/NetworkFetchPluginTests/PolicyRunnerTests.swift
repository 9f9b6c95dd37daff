import SwitchyardBus
import SwitchyardTestSupport
import SwitchyardTesting
import Testing

@testable import NetworkFetchPlugin

/// The policy runner driving real tasks, with gated work and a test clock.
@Suite(.scaledTimeLimit(minutes: 1))
struct PolicyRunnerTests {
    private struct Run {
        let work = GatedWork()
        let clock = ManualClock()
        /// What the runner reported, in order.
        let reports: AsyncStream<PolicyRunner.Event>
        let input: AsyncStream<Int>.Continuation
        let task: Task<Void, Never>

        init(_ policy: WorkPolicy, debounce: Duration? = nil) {
            let (stream, input) = AsyncStream.makeStream(of: Int.self)
            let (reports, report) = AsyncStream.makeStream(of: PolicyRunner.Event.self)
            let work = work
            let runner = PolicyRunner(policy: policy, debounce: debounce, clock: clock, observe: { report.yield($0) })
            self.reports = reports
            self.input = input
            task = Task { await runner.run(stream) { await work.run($0) } }
        }
    }

    /// `latest` cancels the running work when a new element arrives.
    @Test func latestCancelsTheRunningWork() async {
        let run = Run(.latest)
        run.input.yield(1)
        await run.work.waitFor(.started(1))
        run.input.yield(2)
        await run.work.waitFor(.cancelled(1))
        await run.work.waitFor(.started(2))
        run.work.open(2)
        run.input.finish()
        await run.task.value
        #expect(run.work.events == [.started(1), .cancelled(1), .started(2), .finished(2)] || run.work.events == [.started(1), .started(2), .cancelled(1), .finished(2)])
    }

    /// `every(maxConcurrent: 2)` starts the third element only after one of the first two
    /// finished.
    @Test func everyWaitsForASlot() async {
        let run = Run(.every(maxConcurrent: 2))
        for number in 1...3 { run.input.yield(number) }
        await run.work.waitFor(.started(1))
        await run.work.waitFor(.started(2))
        run.work.open(1)
        await run.work.waitFor(.started(3))
        let events = run.work.events
        #expect(events.firstIndex(of: .started(3))! > events.firstIndex(of: .finished(1))!)
        run.work.open(2)
        run.work.open(3)
        run.input.finish()
        await run.task.value
        #expect(Set(run.work.events) == [.started(1), .started(2), .started(3), .finished(1), .finished(2), .finished(3)])
    }

    /// `leading` drops what arrives while busy and serves what arrives after.
    @Test func leadingDropsWhileBusy() async {
        let run = Run(.leading)
        run.input.yield(1)
        await run.work.waitFor(.started(1))
        run.input.yield(2)
        run.input.yield(3)
        var reports = run.reports.makeAsyncIterator()
        #expect(await reports.next() == .dropped)
        #expect(await reports.next() == .dropped)
        run.work.open(1)
        #expect(await reports.next() == .finished)
        run.input.yield(4)
        run.work.open(4)
        run.input.finish()
        await run.task.value
        #expect(run.work.events == [.started(1), .finished(1), .started(4), .finished(4)])
    }

    /// `queue` runs elements one after another in arrival order.
    @Test func queueRunsInOrder() async {
        let run = Run(.queue)
        for number in 1...3 { run.input.yield(number) }
        run.input.finish()
        for number in 1...3 {
            await run.work.waitFor(.started(number))
            run.work.open(number)
        }
        await run.task.value
        #expect(run.work.events == [.started(1), .finished(1), .started(2), .finished(2), .started(3), .finished(3)])
    }

    /// With a debounce, only the element after which the input stayed quiet for the whole
    /// interval is acted on.
    @Test func debounceActsOnTheLastOfABurst() async {
        let run = Run(.latest, debounce: .seconds(1))
        run.input.yield(1)
        await run.clock.waitForSleeper { $0 == .seconds(1) }
        run.clock.advance(by: .milliseconds(500))
        run.input.yield(2)
        await run.clock.waitForSleeper { $0 == .seconds(1) }
        #expect(run.clock.pendingDelays == [.seconds(1)])
        run.clock.advance(by: .milliseconds(500))
        #expect(run.work.events.isEmpty)
        run.clock.advance(by: .milliseconds(500))
        await run.work.waitFor(.started(2))
        run.work.open(2)
        run.input.finish()
        await run.task.value
        #expect(run.work.events == [.started(2), .finished(2)])
    }

    /// A debounced element still pending when the input ends is acted on, not lost.
    @Test func debounceDeliversThePendingElementAtTheEnd() async {
        let run = Run(.queue, debounce: .seconds(2))
        run.input.yield(9)
        run.input.finish()
        await run.clock.waitForSleeper { $0 == .seconds(2) }
        run.clock.advance(by: .seconds(2))
        run.work.open(9)
        await run.task.value
        #expect(run.work.events == [.started(9), .finished(9)])
    }

    /// Cancelling the runner cancels the work in flight, wakes a waiting element without
    /// starting it, and returns.
    @Test func cancellationStopsEverything() async {
        let run = Run(.every(maxConcurrent: 1))
        run.input.yield(1)
        run.input.yield(2)
        await run.work.waitFor(.started(1))
        run.task.cancel()
        await run.task.value
        #expect(run.work.events == [.started(1), .cancelled(1)])
    }
}
