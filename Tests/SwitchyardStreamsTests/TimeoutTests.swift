@testable import SwitchyardStreams
import SwitchyardTestSupport
import SwitchyardTesting
import Testing

@Suite(.scaledTimeLimit(minutes: 1))
struct TimeoutTests {
    /// Silence longer than the interval finishes the sequence and cancels the upstream.
    @Test func silenceFinishes() async {
        let (clock, source, recorder) = recordTimed { $0.timeout(.seconds(1), clock: $1) }
        source.send(1)
        #expect(await recorder.waitForElements(count: 1) == [1])
        await source.waitForDemand()
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(1))
        #expect(await recorder.waitForCompletion() == .finished)
        await source.waitForTermination()
    }

    /// Each element in time restarts the interval; the custom error ends it on a timeout.
    @Test func elementsInTimeKeepItAliveThenCustomErrorFails() async {
        let (clock, source, recorder) = recordTimed { $0.timeout(.seconds(1), clock: $1, customError: { .other }) }
        await source.waitForDemand()
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .milliseconds(900))
        source.send(1)
        await source.waitForDemand()
        clock.advance(by: .milliseconds(900))
        await clock.waitForSleepers(count: 1)
        #expect(recorder.completion == nil)
        #expect(recorder.elements == [1])
        clock.advance(by: .milliseconds(100))
        #expect(await recorder.waitForCompletion() == .failed(.other))
        await source.waitForTermination()
    }

    /// The upstream's typed failure passes through.
    @Test func typedFailureSurvives() async {
        let source = TestSource<Int, TestFailure>()
        let timed: some AsyncSequence<Int, TestFailure> & Sendable = source.timeout(.seconds(1), clock: ManualClock())
        let recorder = TestRecorder(timed)
        source.send(1)
        source.fail(.boom)
        #expect(await recorder.waitForCompletion() == .failed(.boom))
        #expect(recorder.elements == [1])
    }

    /// The machine counts only time spent waiting for the upstream and times out once.
    @Test func stateMachineCountsUpstreamSilenceOnly() {
        var machine = TimeoutStateMachine<Instant>(interval: .seconds(1))
        machine.waitingForUpstream(since: Instant(offset: .zero))
        machine.upstreamAnswered()
        let afterAnswer = machine.deadlineReached(at: Instant(offset: .seconds(5)))
        machine.waitingForUpstream(since: Instant(offset: .seconds(5)))
        let early = machine.deadlineReached(at: Instant(offset: .milliseconds(5900)))
        let due = machine.deadlineReached(at: Instant(offset: .seconds(6)))
        let again = machine.deadlineReached(at: Instant(offset: .seconds(7)))
        #expect(!afterAnswer && !early && due && !again)
        machine.waitingForUpstream(since: Instant(offset: .seconds(7)))
        #expect(machine.deadline == nil)
    }
}
