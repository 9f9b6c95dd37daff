import SwitchyardTestSupport
import Synchronization
@testable import SwitchyardStreams
import SwitchyardTesting
import Testing

@Suite(.scaledTimeLimit(minutes: 1))
struct MergeTests {
    /// Elements of every input come through, each input in its own order, and the merge
    /// finishes after the last input.
    @Test func interleavesAndFinishesAfterTheLastInput() async throws {
        let first = TestSource<Int, TestFailure>()
        let second = TestSource<Int, TestFailure>()
        var iterator = first.merge(with: second).makeAsyncIterator()
        first.send(1)
        #expect(try await iterator.next() == 1)
        second.send(10)
        #expect(try await iterator.next() == 10)
        first.send(2)
        first.finish()
        #expect(try await iterator.next() == 2)
        second.send(11)
        #expect(try await iterator.next() == 11)
        second.finish()
        #expect(try await iterator.next() == nil)
        #expect(try await iterator.next() == nil)
    }

    /// The free function merges three inputs.
    @Test func freeFunctionMergesSeveralInputs() async throws {
        let inputs = (0..<3).map { _ in TestSource<Int, Never>() }
        for (index, input) in inputs.enumerated() {
            input.send(index)
            input.finish()
        }
        var seen: [Int] = []
        for await element in merge(inputs[0], inputs[1], inputs[2]) { seen.append(element) }
        #expect(seen.sorted() == [0, 1, 2])
    }

    /// A typed failure of one input ends the merge after earlier elements and cancels the others.
    @Test func failureEndsTheMergeAndCancelsTheOthers() async throws {
        let first = TestSource<Int, TestFailure>()
        let second = TestSource<Int, TestFailure>()
        let merged: some AsyncSequence<Int, TestFailure> & Sendable = merge(first, second)
        var iterator = merged.makeAsyncIterator()
        first.send(1)
        #expect(try await iterator.next() == 1)
        second.fail(.boom)
        await #expect(throws: TestFailure.boom) { _ = try await iterator.next() }
        #expect(try await iterator.next() == nil)
        await first.waitForTermination()
        await second.waitForTermination()
    }

    /// Cancelling the consumer in the middle stops every input task.
    @Test func cancellingTheConsumerStopsTheInputs() async {
        let first = TestSource<Int, Never>()
        let second = TestSource<Int, Never>()
        let received = Mutex(0)
        let consumer = Task {
            for await _ in first.merge(with: second) { received.withLock { $0 += 1 } }
        }
        first.send(1)
        await first.waitForDemand()
        consumer.cancel()
        await consumer.value
        await first.waitForTermination()
        await second.waitForTermination()
    }

    /// Releasing the iterator stops every input task.
    @Test func releasingTheIteratorStopsTheInputs() async {
        let first = TestSource<Int, Never>()
        let second = TestSource<Int, Never>()
        var iterator: AsyncMergeSequence<Int, Never>.Iterator? = first.merge(with: second).makeAsyncIterator()
        first.send(5)
        #expect(await iterator?.next() == 5)
        iterator = nil
        await first.waitForTermination()
        await second.waitForTermination()
    }

    /// Many concurrent senders into many inputs: nothing is lost and each input keeps its order.
    @Test func manyConcurrentSendersKeepPerInputOrder() async {
        let inputs = 8
        let perInput = 5_000
        let streams = (0..<inputs).map { _ in AsyncStream<(Int, Int)>.makeStream() }
        let merged = AsyncMergeSequence(streams.map(\.stream))
        let senders = Task {
            await withTaskGroup(of: Void.self) { group in
                for (index, pair) in streams.enumerated() {
                    group.addTask {
                        for value in 0..<perInput { pair.continuation.yield((index, value)) }
                        pair.continuation.finish()
                    }
                }
            }
        }
        var next = Array(repeating: 0, count: inputs)
        var outOfOrder = 0
        for await (index, value) in merged {
            if value != next[index] { outOfOrder += 1 }
            next[index] = value + 1
        }
        await senders.value
        #expect(outOfOrder == 0)
        #expect(next == Array(repeating: perInput, count: inputs))
    }

    /// A consumer that does not keep up holds the inputs back: no more than the buffer's 64
    /// elements (and the one an input holds) are ever taken ahead of it.
    @Test func slowConsumerHoldsTheInputsBack() async throws {
        let source = TestSource<Int, Never>()
        let total = 300
        for value in 0..<total { source.send(value) }
        source.finish()
        let other = TestSource<Int, Never>()
        other.finish()
        var iterator = source.merge(with: other).makeAsyncIterator()
        let lead = await source.largestLead(reading: &iterator, sent: total)
        #expect(lead <= 65)
    }

    /// An empty run-time list of inputs finishes at once.
    @Test func emptyListFinishes() async throws {
        var iterator = AsyncMergeSequence<Int, TestFailure>([]).makeAsyncIterator()
        #expect(try await iterator.next() == nil)
    }

    /// The state machine finishes after the last input and fails only once.
    @Test func stateMachineEnds() {
        var machine = MergeStateMachine(inputs: 2)
        #expect(machine.inputFinished() == .none)
        #expect(machine.inputFinished() == .finish)
        #expect(machine.inputFinished() == .none)
        var failing = MergeStateMachine(inputs: 3)
        #expect(failing.inputFailed() == .fail)
        #expect(failing.inputFailed() == .none)
        #expect(failing.inputFinished() == .none)
    }
}
