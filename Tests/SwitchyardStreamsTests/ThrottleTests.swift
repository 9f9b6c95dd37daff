@testable import SwitchyardStreams
import SwitchyardTestSupport
import SwitchyardTesting
import Testing

@Suite(.scaledTimeLimit(minutes: 1))
struct ThrottleTests {
    /// Rule 3: the first value goes out at once; after a burst and then silence, the trailing
    /// value arrives when the window ends, driven by the clock and not by a later element.
    @Test("Rule 3: throttle sends the first value at once and the trailing value within one interval")
    func rule3FirstAtOnceTrailingOnTimer() async {
        let (clock, source, recorder) = recordTimed { $0.throttle(for: .seconds(1), clock: $1, latest: true) }
        source.send(1)
        #expect(await recorder.waitForElements(count: 1) == [1])
        for value in 2...4 {
            source.send(value)
            await source.waitForDemand()
        }
        await clock.waitForSleepers(count: 1)
        #expect(clock.nextDeadline == Instant(offset: .seconds(1)))
        clock.advance(by: .seconds(1))
        #expect(await recorder.waitForElements(count: 2) == [1, 4])
        await clock.waitForSleepers(count: 0)
        clock.advance(by: .milliseconds(500))
        source.send(5)
        await source.waitForDemand()
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .milliseconds(500))
        #expect(await recorder.waitForElements(count: 3) == [1, 4, 5])
        clock.advance(by: .milliseconds(1500))
        source.send(6)
        #expect(await recorder.waitForElements(count: 4) == [1, 4, 5, 6])
    }

    /// With `latest: false` a window emits the first element it held.
    @Test func firstOfWindowWhenNotLatest() async {
        let (clock, source, recorder) = recordTimed { $0.throttle(for: .seconds(1), clock: $1, latest: false) }
        for value in 1...4 {
            source.send(value)
            await source.waitForDemand()
        }
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(1))
        #expect(await recorder.waitForElements(count: 2) == [1, 2])
    }

    /// The held element is delivered when the upstream finishes.
    @Test func finishDeliversTheHeldElement() async {
        let (_, source, recorder) = recordTimed { $0.throttle(for: .seconds(1), clock: $1, latest: true) }
        source.send(1)
        source.send(2)
        source.finish()
        #expect(await recorder.waitForCompletion() == .finished)
        #expect(recorder.elements == [1, 2])
    }

    /// The typed failure survives, after the held element: nothing the throttle took is lost.
    @Test func typedFailureSurvives() async {
        let clock = ManualClock()
        let source = TestSource<Int, TestFailure>()
        let throttled: some AsyncSequence<Int, TestFailure> & Sendable = source.throttle(for: .seconds(1), clock: clock, latest: true)
        let recorder = TestRecorder(throttled)
        source.send(1)
        source.send(2)
        source.fail(.boom)
        #expect(await recorder.waitForCompletion() == .failed(.boom))
        #expect(recorder.elements == [1, 2])
    }

    /// The machine opens windows, holds within them, and catches up when an element arrives
    /// after a window ended before its timer ran.
    @Test func stateMachineWindows() {
        var machine = ThrottleStateMachine<Int, Instant>(interval: .seconds(1), latest: true)
        var emitted: [Int] = []
        machine.received(1, at: Instant(offset: .zero)) { emitted.append($0) }
        machine.received(2, at: Instant(offset: .milliseconds(200))) { emitted.append($0) }
        machine.received(3, at: Instant(offset: .milliseconds(400))) { emitted.append($0) }
        #expect(emitted == [1])
        #expect(machine.deadline == Instant(offset: .seconds(1)))
        machine.received(4, at: Instant(offset: .milliseconds(1100))) { emitted.append($0) }
        #expect(emitted == [1, 3])
        #expect(machine.held == 4)
        machine.deadlineReached(at: Instant(offset: .milliseconds(2100))) { emitted.append($0) }
        #expect(emitted == [1, 3, 4])
        #expect(machine.deadline == nil)
        machine.deadlineReached(at: Instant(offset: .milliseconds(3100))) { emitted.append($0) }
        #expect(machine.windowEnd == nil)
        #expect(machine.upstreamFinished() == nil)
    }
}
