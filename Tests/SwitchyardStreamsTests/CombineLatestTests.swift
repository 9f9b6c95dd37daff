@testable import SwitchyardStreams
import SwitchyardTestSupport
import SwitchyardTesting
import Testing

@Suite(.scaledTimeLimit(minutes: 1))
struct CombineLatestTests {
    /// Rule 1: nothing is emitted until every input has a value; then each element of any input
    /// emits a tuple, and the whole finishes only when all inputs have finished.
    @Test("Rule 1: combineLatest waits for every input and finishes when all inputs finish")
    func rule1WaitsForEveryInputAndFinishesWithAll() async {
        let (numbers, letters, recorder) = recordTwo(Int.self, String.self, failure: TestFailure.self) { numbers, letters in
            numbers.combineLatest(letters).map { "\($0)\($1)" }
        }
        numbers.send(1)
        numbers.send(2)
        await numbers.waitForDemand()
        letters.send("a")
        #expect(await recorder.waitForElements(count: 1) == ["2a"])
        numbers.finish()
        await numbers.waitForDemand()
        letters.send("b")
        #expect(await recorder.waitForElements(count: 2) == ["2a", "2b"])
        #expect(recorder.completion == nil)
        letters.finish()
        #expect(await recorder.waitForCompletion() == .finished)
    }

    /// Rule 1: an input that finishes without ever producing a value finishes the whole, and
    /// the other inputs are cancelled.
    @Test("Rule 1: an input that ends without a value ends combineLatest")
    func rule1InputEndingEmptyEndsIt() async {
        let (numbers, letters, recorder) = recordTwo(Int.self, String.self, failure: TestFailure.self) { numbers, letters in
            numbers.combineLatest(letters).map { "\($0)\($1)" }
        }
        numbers.send(1)
        await numbers.waitForDemand()
        letters.finish()
        #expect(await recorder.waitForCompletion() == .finished)
        #expect(recorder.elements.isEmpty)
        await numbers.waitForTermination()
    }

    /// Rule 1: a typed failure of one input fails the whole and cancels the other inputs.
    @Test("Rule 1: an error in combineLatest cancels the other inputs")
    func rule1ErrorCancelsTheOthers() async {
        let numbers = TestSource<Int, TestFailure>()
        let letters = TestSource<String, TestFailure>()
        let flags = TestSource<Bool, TestFailure>()
        let recorder = TestRecorder(combineLatest(numbers, letters, flags).map { "\($0)\($1)\($2)" })
        numbers.send(1)
        letters.send("a")
        flags.send(true)
        #expect(await recorder.waitForElements(count: 1) == ["1atrue"])
        letters.fail(.boom)
        #expect(await recorder.waitForCompletion() == .failed(.boom))
        await numbers.waitForTermination()
        await flags.waitForTermination()
    }

    /// Four inputs of four element types combine into one tuple.
    @Test func combinesFourInputsOfDifferentTypes() async throws {
        let a = TestSource<Int, Never>()
        let b = TestSource<String, Never>()
        let c = TestSource<Double, Never>()
        let d = TestSource<Bool, Never>()
        var iterator = a.combineLatest(b, c, d).makeAsyncIterator()
        a.send(1)
        b.send("b")
        c.send(2.5)
        d.send(false)
        let tuple = await iterator.next()
        #expect(tuple.map { "\($0)\($1)\($2)\($3)" } == "1b2.5false")
    }

    /// The machine emits once every slot has a value and ends exactly once.
    @Test func stateMachineEmitsOnceComplete() {
        var machine = CombineLatestStateMachine<Int>(inputs: 2)
        #expect(machine.received(1, from: 0) == .none)
        #expect(machine.received(2, from: 0) == .none)
        #expect(machine.received(10, from: 1) == .emit)
        #expect(machine.latest == [2, 10])
        #expect(machine.inputFinished(0) == .none)
        #expect(machine.received(11, from: 1) == .emit)
        #expect(machine.inputFinished(1) == .finish)
        #expect(machine.received(12, from: 1) == .none)
        var empty = CombineLatestStateMachine<Int>(inputs: 2)
        #expect(empty.received(1, from: 0) == .none)
        #expect(empty.inputFinished(1) == .finish)
        #expect(empty.inputFailed() == .none)
    }
}
