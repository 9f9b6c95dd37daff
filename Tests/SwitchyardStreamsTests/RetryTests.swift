import SwitchyardTestSupport
import Synchronization
import SwitchyardStreams
import SwitchyardTesting
import Testing

@Suite(.scaledTimeLimit(minutes: 1))
struct RetryTests {
    /// A sequence that fails its first `failures` attempts after one element, then succeeds.
    struct Flaky: AsyncSequence, Sendable {
        let attempts = Attempts()
        let failures: Int

        final class Attempts: Sendable {
            let count = Mutex(0)
        }

        func makeAsyncIterator() -> AsyncThrowingStream<Int, any Error>.Iterator {
            let attempt = attempts.count.withLock { count in
                count += 1
                return count
            }
            let (stream, continuation) = AsyncThrowingStream<Int, any Error>.makeStream()
            continuation.yield(attempt)
            continuation.finish(throwing: attempt <= failures ? TestFailure.boom : nil)
            return stream.makeAsyncIterator()
        }
    }

    /// Like ``Flaky`` with a typed failure: attempt `n` emits `n`, then fails while `n` is at
    /// most `failures`.
    struct TypedFlaky: AsyncSequence, Sendable {
        let failures: Int
        let attempts = Flaky.Attempts()

        struct Iterator: AsyncIteratorProtocol {
            let attempt: Int
            let failures: Int
            var emitted = false

            mutating func next() async throws(TestFailure) -> Int? {
                if !emitted {
                    emitted = true
                    return attempt
                }
                if attempt <= failures { throw .boom }
                return nil
            }
        }

        func makeAsyncIterator() -> Iterator {
            let attempt = attempts.count.withLock { count in
                count += 1
                return count
            }
            return Iterator(attempt: attempt, failures: failures)
        }
    }

    /// Failed attempts are started over until one finishes; earlier elements stay emitted.
    @Test func startsOverUntilAnAttemptFinishes() async throws {
        let flaky = Flaky(failures: 2)
        var seen: [Int] = []
        for try await value in flaky.retry(3) { seen.append(value) }
        #expect(seen == [1, 2, 3])
        #expect(flaky.attempts.count.withLock { $0 } == 3)
    }

    /// The typed failure of the last allowed attempt comes through.
    @Test func lastFailureSurvivesTyped() async {
        let flaky = TypedFlaky(failures: 5)
        let retried: some AsyncSequence<Int, TestFailure> & Sendable = flaky.retry(2)
        let recorder = TestRecorder(retried)
        #expect(await recorder.waitForCompletion() == .failed(.boom))
        #expect(recorder.elements == [1, 2, 3])
    }

    /// With zero retries the first failure ends the sequence.
    @Test func zeroRetriesFailsAtOnce() async {
        let flaky = Flaky(failures: 1)
        await #expect(throws: TestFailure.boom) {
            for try await _ in flaky.retry(0) {}
        }
        #expect(flaky.attempts.count.withLock { $0 } == 1)
    }

    /// A negative number of retries stops the program with a clear message.
    @Test func negativeRetriesAreRejected() async {
        await #expect(processExitsWith: .failure) {
            _ = TestSource<Int, TestFailure>().retry(-1)
        }
    }

    /// Cancelling the consumer in the middle stops the attempt and starts no new one.
    @Test func cancellationInTheMiddleStops() async {
        let source = TestSource<Int, TestFailure>()
        let recorder = TestRecorder(source.retry(5))
        source.send(1)
        await recorder.waitForElements(count: 1)
        recorder.cancel()
        #expect(await recorder.waitForCompletion() == .finished)
        await source.waitForTermination()
        #expect(source.iteratorCount == 1)
    }
}
