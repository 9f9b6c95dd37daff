import SwitchyardStreams
import SwitchyardTestSupport
import SwitchyardTesting
import Testing

/// Issue 34 point 4: the standalone `buffer(size:whenFull:)`.
@Suite(.scaledTimeLimit(minutes: 1))
struct BufferOperatorTests {
    /// `.suspendProducer` reads ahead up to the size, then waits for the consumer: nothing lost.
    @Test func suspendingBufferReadsAheadOnlyItsSize() async {
        let source = PullCountingSequence(count: 1_000)
        var iterator = source.buffer(size: 8).makeAsyncIterator()
        #expect(await iterator.next() == 0)
        await waitUntil("the buffer has filled") { source.pulls.count >= 8 }
        for _ in 0..<100 { await Task.yield() }
        #expect(source.pulls.count <= 1 + 8 + 1)
        var seen = [0]
        while let value = await iterator.next() { seen.append(value) }
        #expect(seen == Array(0..<1_000))
    }

    /// The dropping policies: after the first element starts the reading, the consumer takes
    /// nothing until the source has sent 1...9 and finished.
    @Test(arguments: [
        (OverflowPolicy.dropOldest, [7, 8, 9]),
        (.dropNewest, [1, 2, 3]),
        (.latest, [9]),
    ])
    func fullBufferDropsPerPolicy(policy: OverflowPolicy, kept: [Int]) async throws {
        let source = TestSource<Int, TestFailure>()
        var iterator = source.buffer(size: 3, whenFull: policy).makeAsyncIterator()
        source.send(0)
        #expect(try await iterator.next() == 0)
        for value in 1...9 { source.send(value) }
        await source.waitForDemand()
        source.finish()
        var seen: [Int] = []
        while let value = try await iterator.next() { seen.append(value) }
        #expect(seen == kept)
    }

    /// A failure comes after the buffered elements.
    @Test func failureComesAfterTheBufferedElements() async {
        let recorder = TestRecorder(PullCountingSequence(count: 3, thenFailing: TestFailure.boom).buffer(size: 8))
        #expect(await recorder.waitForCompletion() == .failed(.boom))
        #expect(recorder.elements == [0, 1, 2])
    }
}
