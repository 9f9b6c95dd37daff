@testable import SwitchyardStreams
import SwitchyardTestSupport
import SwitchyardTesting
import Testing

/// Issue 34 point 4: `collect(every:)`, `collect(count:orEvery:)`, `delay(for:)` and the
/// timer, driven by a manual clock (marble style: send, advance, see what came out).
@Suite(.scaledTimeLimit(minutes: 1))
struct TimedShapingTests {
    /// Sends `values` and waits until the operator has read them all.
    func send(_ values: [Int], to source: TestSource<Int, TestFailure>) async {
        for value in values { source.send(value) }
        await source.waitForDemand()
    }

    /// Windows of one second: each emits what arrived in it, an empty one nothing.
    @Test func collectEveryWindowEmitsWhatArrivedInIt() async {
        await CollectScenarios.windowsEmitWhatArrivedInThem { $0.collect(every: .seconds(1), clock: $1) }
    }

    /// By count or time: a full array goes out at once, the window keeps its pace, and a
    /// failure comes after the rest.
    @Test func collectByCountOrTimeEmitsFullArraysAtOnce() async {
        await CollectScenarios.fullArraysGoOutAtOnce { $0.collect(count: 2, orEvery: .seconds(1), clock: $1) }
    }

    /// `delay`: `1` sent at 0 s and `2` at 0.5 s come out at 1 s and 1.5 s; the finish, sent
    /// at 1.5 s, comes out at 2.5 s. (The end is sent only once nothing is pending, so the
    /// test knows when the operator has read it: when its timer sleeps again.)
    @Test func delayKeepsTheSpacing() async {
        let (clock, source, recorder) = recordTimed { $0.delay(for: .seconds(1), clock: $1) }
        await send([1], to: source)
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .milliseconds(500))
        await send([2], to: source)
        await clock.waitForSleepers(count: 1)
        #expect(recorder.elements.isEmpty)
        clock.advance(by: .milliseconds(499))
        await clock.waitForSleepers(count: 1)
        #expect(recorder.elements.isEmpty)
        clock.advance(by: .milliseconds(1))
        #expect(await recorder.waitForElements(count: 1) == [1])
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .milliseconds(500))
        #expect(await recorder.waitForElements(count: 2) == [1, 2])
        source.finish()
        await clock.waitForSleepers(count: 1)
        #expect(recorder.completion == nil)
        clock.advance(by: .seconds(1))
        #expect(await recorder.waitForCompletion() == .finished)
        #expect(clock.now == Instant(offset: .milliseconds(2_500)))
    }

    /// `delay` delivers a failure `interval` after it arrived.
    @Test func delayDeliversAFailureLater() async {
        let (clock, source, recorder) = recordTimed { $0.delay(for: .seconds(1), clock: $1) }
        await send([1], to: source)
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(1))
        #expect(await recorder.waitForElements(count: 1) == [1])
        source.fail(.boom)
        await clock.waitForSleepers(count: 1)
        #expect(recorder.completion == nil)
        clock.advance(by: .seconds(1))
        #expect(await recorder.waitForCompletion() == .failed(.boom))
    }

    /// The machine delivers an end that arrived with elements still pending after them, and
    /// everything due at once when the timer wakes late.
    @Test func delayMachineDeliversTheEndAfterPendingElements() {
        var machine = DelayStateMachine<Int, TestFailure, Instant>(interval: .seconds(1))
        machine.received(1, at: Instant(offset: .zero))
        machine.received(2, at: Instant(offset: .milliseconds(100)))
        machine.upstreamEnded(.failure(.boom), at: Instant(offset: .milliseconds(100)))
        #expect(machine.deadline == Instant(offset: .seconds(1)))
        var output = OperatorOutput<Int, TestFailure>()
        machine.deadlineReached(at: Instant(offset: .seconds(1)), output: &output)
        #expect(output.bufferedCount == 1 && !output.isEnded)
        machine.deadlineReached(at: Instant(offset: .seconds(5)), output: &output)
        #expect(output.bufferedCount == 2 && output.isEnded)
        #expect(machine.deadline == nil)
    }

    /// The timer ticks every interval from its first `next`; a consumer that comes back late
    /// gets the latest tick at once, and the missed ones are skipped.
    @Test func timerTicksAndSkipsMissedTicks() async {
        let clock = ManualClock()
        let ticks = Task {
            var iterator = timer(every: .seconds(1), clock: clock).makeAsyncIterator()
            var seen: [Instant] = []
            while seen.count < 2, let tick = await iterator.next() { seen.append(tick) }
            await clock.waitForSleepers(count: 0)
            while clock.now < Instant(offset: .milliseconds(3_500)) { await Task.yield() }
            if let late = await iterator.next() { seen.append(late) }
            if let next = await iterator.next() { seen.append(next) }
            return seen
        }
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(1))
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(1))
        clock.advance(by: .milliseconds(1_500))
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .milliseconds(500))
        let seen = await ticks.value
        #expect(seen.map(\.offset) == [.seconds(1), .seconds(2), .seconds(3), .seconds(4)])
    }

    /// Cancelling the task waiting for a tick ends the timer.
    @Test func timerEndsWhenCancelled() async {
        let clock = ManualClock()
        let ticks = Task { await timer(every: .seconds(1), clock: clock).first() }
        await clock.waitForSleepers(count: 1)
        ticks.cancel()
        #expect(await ticks.value == nil)
    }
}
