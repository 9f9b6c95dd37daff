import SwitchyardStreams
import SwitchyardTestSupport
import SwitchyardTesting
import Testing

@Suite(.scaledTimeLimit(minutes: 1))
struct ScanTests {
    /// Each element emits the running result; the initial result is not emitted.
    @Test func emitsRunningResults() async throws {
        let source = TestSource<Int, TestFailure>()
        for value in [1, 2, 3, 4] { source.send(value) }
        source.finish()
        var seen: [Int] = []
        for try await total in source.scan(10, +) { seen.append(total) }
        #expect(seen == [11, 13, 16, 20])
    }

    /// Every iterator starts again from the initial result.
    @Test func eachIteratorStartsOver() async {
        let numbers = AsyncStream<Int> { continuation in
            for value in 1...3 { continuation.yield(value) }
            continuation.finish()
        }
        let labels = numbers.scan("") { $0 + String($1) }
        var seen: [String] = []
        for await label in labels { seen.append(label) }
        #expect(seen == ["1", "12", "123"])
        var again = labels.makeAsyncIterator()
        #expect(await again.next() == nil)
    }

    /// The typed failure passes through unchanged, after the results before it.
    @Test func typedFailureSurvives() async {
        let source = TestSource<Int, TestFailure>()
        source.send(5)
        source.fail(.other)
        let totals: some AsyncSequence<Int, TestFailure> & Sendable = source.scan(0, +)
        let recorder = TestRecorder(totals)
        #expect(await recorder.waitForCompletion() == .failed(.other))
        #expect(recorder.elements == [5])
    }

    /// Cancelling the consumer while it waits ends the iteration and releases the source.
    @Test func cancellationInTheMiddleStops() async {
        let source = TestSource<Int, TestFailure>()
        let recorder = TestRecorder(source.scan(0, +))
        source.send(1)
        await recorder.waitForElements(count: 1)
        recorder.cancel()
        #expect(await recorder.waitForCompletion() == .finished)
        await source.waitForTermination()
    }
}
