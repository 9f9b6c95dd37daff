import SwitchyardTestSupport
import Synchronization
@testable import SwitchyardStreams
import SwitchyardTesting
import Testing

@Suite(.scaledTimeLimit(minutes: 1))
struct FlatMapLatestTests {
    /// Rule 4: a new outer element cancels the previous inner sequence, and only the new one
    /// emits afterwards.
    @Test("Rule 4: flatMapLatest cancels the previous inner sequence")
    func rule4SwitchCancelsThePreviousInner() async {
        let outer = TestSource<Int, TestFailure>()
        let inners = (0..<2).map { _ in TestSource<String, TestFailure>() }
        let recorder = TestRecorder(outer.flatMapLatest { inners[$0] })
        outer.send(0)
        await inners[0].waitForDemand()
        inners[0].send("a")
        #expect(await recorder.waitForElements(count: 1) == ["a"])
        outer.send(1)
        await inners[0].waitForTermination()
        inners[0].send("late")
        inners[1].send("b")
        #expect(await recorder.waitForElements(count: 2) == ["a", "b"])
        outer.finish()
        inners[1].finish()
        #expect(await recorder.waitForCompletion() == .finished)
        #expect(recorder.elements == ["a", "b"])
    }

    /// Rule 4: the whole finishes only when the outer and the current inner have both finished.
    @Test("Rule 4: flatMapLatest finishes only when outer and current inner are done")
    func rule4FinishesWhenBothAreDone() async {
        let (outer, inner, recorder) = recordTwo(Int.self, String.self, failure: TestFailure.self) { outer, inner in
            outer.flatMapLatest { _ in inner }
        }
        outer.send(0)
        await inner.waitForDemand()
        outer.finish()
        await outer.waitForTermination()
        inner.send("after the outer finished")
        #expect(await recorder.waitForElements(count: 1) == ["after the outer finished"])
        #expect(recorder.completion == nil)
        inner.finish()
        #expect(await recorder.waitForCompletion() == .finished)
    }

    /// Rule 4 stress: rapid switching between inner sequences that never suspend and ignore
    /// cancellation leaks nothing from a replaced inner sequence, and the last one completes.
    @Test("Rule 4: rapid switching in flatMapLatest leaks no late values", arguments: 0..<4)
    func rule4RapidSwitchingLeaksNothing(round: Int) async {
        for _ in 0..<50 {
            let generations = 40
            let perInner = 50
            let outer = ImmediateSequence(Array(0..<generations))
            var seen: [Int] = []
            for await generation in outer.flatMapLatest({ ImmediateSequence(Array(repeating: $0, count: perInner)) }) {
                seen.append(generation)
            }
            #expect(zip(seen, seen.dropFirst()).allSatisfy { $0 <= $1 }, "a replaced inner sequence leaked")
            #expect(seen.filter { $0 == generations - 1 }.count == perInner)
        }
    }

    /// Rule 4 stress: an outer sequence fed from another task switches while inner sequences
    /// are emitting; output generations never go backwards.
    @Test("Rule 4: concurrent switching keeps generations in order")
    func rule4ConcurrentSwitching() async {
        let (outer, continuation) = AsyncStream<Int>.makeStream()
        let feeder = Task {
            for generation in 0..<2_000 {
                continuation.yield(generation)
                if generation % 10 == 0 { await Task.yield() }
            }
            continuation.finish()
        }
        var last = -1
        var backwards = 0
        var count = 0
        for await generation in outer.flatMapLatest({ ImmediateSequence(Array(repeating: $0, count: 20)) }) {
            if generation < last { backwards += 1 }
            last = generation
            count += 1
        }
        await feeder.value
        #expect(backwards == 0)
        #expect(last == 1_999)
        #expect(count >= 20)
    }

    /// The async form cancels the call it replaces; only the latest call's result comes out.
    @Test func asyncFormCancelsTheReplacedCall() async {
        let outer = TestSource<Int, Never>()
        let cancelled = Mutex<[Int]>([])
        let (release, releaser) = AsyncStream<Void>.makeStream()
        let recorder = TestRecorder(outer.flatMapLatest { (value: Int) async -> Int in
            if value == 1 {
                await withTaskCancellationHandler {
                    for await _ in release {}
                } onCancel: {
                    cancelled.withLock { $0.append(value) }
                    releaser.finish()
                }
            }
            return value * 10
        })
        outer.send(1)
        await outer.waitForDemand()
        outer.send(2)
        outer.finish()
        #expect(await recorder.waitForCompletion() == .finished)
        #expect(recorder.elements == [20])
        #expect(cancelled.withLock { $0 } == [1])
    }

    /// The typed failure of the current inner sequence fails the whole and cancels the outer.
    @Test func innerTypedFailureSurvives() async {
        let outer = TestSource<Int, TestFailure>()
        let inner = TestSource<Int, TestFailure>()
        let flattened: some AsyncSequence<Int, TestFailure> & Sendable = outer.flatMapLatest { _ in inner }
        let recorder = TestRecorder(flattened)
        outer.send(0)
        inner.send(7)
        inner.fail(.boom)
        #expect(await recorder.waitForCompletion() == .failed(.boom))
        #expect(recorder.elements == [7])
        await outer.waitForTermination()
    }

    /// The outer sequence's typed failure fails the whole and cancels the inner one.
    @Test func outerTypedFailureSurvives() async {
        let (outer, inner, recorder) = recordTwo(Int.self, Int.self, failure: TestFailure.self) { outer, inner in
            outer.flatMapLatest { _ in inner }
        }
        outer.send(0)
        await inner.waitForDemand()
        outer.fail(.other)
        #expect(await recorder.waitForCompletion() == .failed(.other))
        await inner.waitForTermination()
    }

    /// Cancelling the consumer in the middle stops the outer task and the inner task.
    @Test func cancellationInTheMiddleStopsEveryTask() async {
        let (outer, inner, recorder) = recordTwo(Int.self, Int.self, failure: Never.self) { outer, inner in
            outer.flatMapLatest { _ in inner }
        }
        outer.send(0)
        inner.send(1)
        await recorder.waitForElements(count: 1)
        await expectCancellingStopsBoth(recorder, outer, inner)
    }

    /// A replaced generation can neither emit nor end the whole; the current one can.
    @Test func stateMachineIgnoresReplacedGenerations() {
        var machine = FlatMapLatestStateMachine()
        let first = machine.outerReceived()
        #expect(first.replaced == nil)
        let recorded = machine.innerStarted(task: 10, generation: first.generation)
        #expect(recorded)
        let second = machine.outerReceived()
        #expect(second.replaced == 10)
        #expect(!machine.isCurrent(first.generation))
        #expect(machine.innerFailed(generation: first.generation) == .none)
        #expect(machine.innerFinished(generation: first.generation) == .none)
        let recordedLate = machine.innerStarted(task: 11, generation: first.generation)
        #expect(!recordedLate)
        #expect(machine.outerFinished(failed: false) == .none)
        #expect(machine.innerFinished(generation: second.generation) == .finish)
        #expect(!machine.isCurrent(second.generation))
    }
}
