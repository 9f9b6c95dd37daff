@testable import SwitchyardStreams
import SwitchyardTestSupport
import SwitchyardTesting
import Testing

@Suite(.scaledTimeLimit(minutes: 1))
struct ZipTests {
    /// Elements pair up by position; the zip ends once the shorter input has finished and its
    /// elements are paired, and the longer input is cancelled.
    @Test func pairsByPositionAndEndsWithTheShortest() async throws {
        let numbers = TestSource<Int, TestFailure>()
        let letters = TestSource<String, TestFailure>()
        for value in 1...3 { numbers.send(value) }
        numbers.finish()
        let recorder = TestRecorder(numbers.zip(letters).map { "\($0)\($1)" })
        await numbers.waitForDemand()
        for letter in ["a", "b", "c"] { letters.send(letter) }
        #expect(await recorder.waitForCompletion() == .finished)
        #expect(recorder.elements == ["1a", "2b", "3c"])
        await letters.waitForTermination()
    }

    /// Issue 34 point 2: an input that races ahead is read at most 16 elements ahead of the
    /// others (it was read without limit); it goes on once half of those are paired.
    @Test func fastInputIsReadOnlyABoundAhead() async throws {
        let fast = TestSource<Int, Never>()
        let slow = TestSource<Int, Never>()
        var iterator = fast.zip(slow).makeAsyncIterator()
        for value in 0..<1_000 { fast.send(value) }
        slow.send(0)
        let first = await iterator.next()
        #expect(first?.0 == 0 && first?.1 == 0)
        await slow.waitForDemand()
        for _ in 0..<100 { await Task.yield() }
        #expect(fast.bufferedCount >= 1_000 - 1 - 16 - 1)
        for value in 1..<1_000 {
            slow.send(value)
            let pair = await iterator.next()
            #expect(pair?.0 == value && pair?.1 == value)
        }
    }

    /// The machine emits rows in order and finishes when a finished input runs dry.
    @Test func stateMachinePairsAndFinishes() {
        var machine = ZipStateMachine<Int>(inputs: 2, queueLimit: 2)
        #expect(machine.received(1, from: 0) == .none)
        #expect(machine.received(2, from: 0) == .none)
        #expect(machine.isFull(0) && !machine.hasRoom(0) && !machine.isPaired(0))
        #expect(machine.received(10, from: 1) == .emit([1, 10]))
        #expect(!machine.isFull(0) && machine.hasRoom(0) && !machine.isPaired(0))
        #expect(machine.inputFinished(0) == .none)
        #expect(machine.received(20, from: 1) == .emitThenFinish([2, 20]))
        #expect(machine.received(30, from: 1) == .none)
        var failing = ZipStateMachine<Int>(inputs: 2)
        #expect(failing.inputFailed() == .fail)
        #expect(failing.inputFinished(1) == .none)
        var empty = ZipStateMachine<Int>(inputs: 3)
        #expect(empty.inputFinished(2) == .finish)
    }

    /// Three inputs of different types zip into triples with the free function.
    @Test func zipsThreeInputs() async {
        let numbers = TestSource<Int, Never>()
        let letters = TestSource<String, Never>()
        let flags = TestSource<Bool, Never>()
        numbers.send(1)
        letters.send("a")
        flags.send(true)
        flags.finish()
        var seen: [String] = []
        for await (number, letter, flag) in zip(numbers, letters, flags) { seen.append("\(number)\(letter)\(flag)") }
        #expect(seen == ["1atrue"])
    }

    /// The typed failure of any input ends the zip at once, after the tuples emitted before
    /// it; an element still waiting for its partner is dropped.
    @Test func typedFailureSurvives() async {
        let numbers = TestSource<Int, TestFailure>()
        let letters = TestSource<String, TestFailure>()
        let zipped: some AsyncSequence<(Int, String), TestFailure> & Sendable = zip(numbers, letters)
        let recorder = TestRecorder(zipped.map { "\($0)\($1)" })
        numbers.send(1)
        letters.send("a")
        #expect(await recorder.waitForElements(count: 1) == ["1a"])
        numbers.send(2)
        await numbers.waitForDemand()
        letters.fail(.boom)
        #expect(await recorder.waitForCompletion() == .failed(.boom))
        #expect(recorder.elements == ["1a"])
    }
}
