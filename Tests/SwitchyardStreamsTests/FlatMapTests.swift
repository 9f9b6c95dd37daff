@testable import SwitchyardStreams
import SwitchyardTestSupport
import SwitchyardTesting
import Testing

@Suite(.scaledTimeLimit(minutes: 1))
struct FlatMapTests {
    /// No more than `maxConcurrent` inner sequences run; the next starts when one finishes.
    @Test func boundsTheRunningInnerSequences() async {
        let outer = TestSource<Int, TestFailure>()
        let inners = (0..<3).map { _ in TestSource<String, TestFailure>() }
        let recorder = TestRecorder(outer.flatMap(maxConcurrent: 2) { inners[$0] })
        for index in 0..<3 { outer.send(index) }
        outer.finish()
        await inners[0].waitForDemand()
        await inners[1].waitForDemand()
        #expect(inners[2].iteratorCount == 0)
        #expect(outer.bufferedCount == 1)
        inners[1].send("b")
        inners[0].send("a")
        await recorder.waitForElements(count: 2)
        inners[0].finish()
        await inners[2].waitForDemand()
        inners[2].send("c")
        inners[1].finish()
        inners[2].finish()
        #expect(await recorder.waitForCompletion() == .finished)
        #expect(recorder.elements.sorted() == ["a", "b", "c"])
        #expect(recorder.elements.last == "c")
    }

    /// With `maxConcurrent: 1` inner sequences run one after another, in order.
    @Test func oneAtATimeConcatenates() async {
        let outer = ImmediateSequence([1, 2, 3])
        var seen: [Int] = []
        for await value in outer.flatMap(maxConcurrent: 1, { ImmediateSequence([$0, $0 * 10]) }) {
            seen.append(value)
        }
        #expect(seen == [1, 10, 2, 20, 3, 30])
    }

    /// The async form runs the calls and emits each result.
    @Test func asyncFormEmitsEachResult() async {
        let outer = ImmediateSequence(Array(1...20))
        var seen: [Int] = []
        for await value in outer.flatMap(maxConcurrent: 4, { (value: Int) async -> Int in value * 2 }) {
            seen.append(value)
        }
        #expect(seen.sorted() == (1...20).map { $0 * 2 })
    }

    /// A typed failure of an inner sequence fails the whole and cancels everything else.
    @Test func innerTypedFailureSurvives() async {
        let outer = TestSource<Int, TestFailure>()
        let inners = (0..<2).map { _ in TestSource<Int, TestFailure>() }
        let flattened: some AsyncSequence<Int, TestFailure> & Sendable = outer.flatMap(maxConcurrent: 2) { inners[$0] }
        let recorder = TestRecorder(flattened)
        outer.send(0)
        outer.send(1)
        await inners[0].waitForDemand()
        await inners[1].waitForDemand()
        inners[1].fail(.boom)
        #expect(await recorder.waitForCompletion() == .failed(.boom))
        await inners[0].waitForTermination()
        await outer.waitForTermination()
    }

    /// Cancelling the consumer in the middle stops the outer task and every inner task.
    @Test func cancellationInTheMiddleStopsEveryTask() async {
        let outer = TestSource<Int, Never>()
        let inners = (0..<2).map { _ in TestSource<Int, Never>() }
        let recorder = TestRecorder(outer.flatMap(maxConcurrent: 3) { inners[$0] })
        outer.send(0)
        outer.send(1)
        inners[0].send(5)
        await recorder.waitForElements(count: 1)
        await inners[1].waitForDemand()
        recorder.cancel()
        #expect(await recorder.waitForCompletion() == .finished)
        await outer.waitForTermination()
        await inners[0].waitForTermination()
        await inners[1].waitForTermination()
    }

    /// `maxConcurrent` below 1 stops the program with a clear message.
    @Test func zeroConcurrencyIsRejected() async {
        await #expect(processExitsWith: .failure) {
            _ = TestSource<Int, Never>().flatMap(maxConcurrent: 0) { _ in TestSource<Int, Never>() }
        }
    }

    /// The machine holds the outer back at the limit and finishes after the last inner.
    @Test func stateMachineCountsInnerSequences() {
        var machine = FlatMapStateMachine(maxConcurrent: 2)
        machine.innerStarted()
        #expect(machine.mayStartInner)
        machine.innerStarted()
        #expect(!machine.mayStartInner)
        #expect(machine.innerFinished() == .none)
        #expect(machine.outerFinished(failed: false) == .none)
        #expect(machine.innerFinished() == .finish)
        #expect(machine.mayStartInner)
        var failing = FlatMapStateMachine(maxConcurrent: 1)
        failing.innerStarted()
        #expect(failing.innerFailed() == .fail)
        #expect(failing.outerFinished(failed: true) == .none)
    }
}
