import SwitchyardTestSupport
import SwitchyardTesting
import Testing

/// The failure the tests send through typed sequences.
enum TestFailure: Error, Equatable {
    case boom
    case other
}

@Suite(.scaledTimeLimit(minutes: 1))
struct TestSourceTests {
    /// Buffered elements are delivered in order, then the end.
    @Test func deliversBufferedElementsThenEnds() async throws {
        let source = TestSource<Int, TestFailure>()
        source.send(1)
        source.send(2)
        source.finish()
        var iterator = source.makeAsyncIterator()
        #expect(try await iterator.next() == 1)
        #expect(try await iterator.next() == 2)
        #expect(try await iterator.next() == nil)
        #expect(try await iterator.next() == nil)
    }

    /// A failure is thrown once, after the buffered elements, and then the source ends.
    @Test func failureIsThrownOnceAfterTheBuffer() async throws {
        let source = TestSource<Int, TestFailure>()
        source.send(1)
        source.fail(.boom)
        var iterator = source.makeAsyncIterator()
        #expect(try await iterator.next() == 1)
        await #expect(throws: TestFailure.boom) { _ = try await iterator.next() }
        #expect(try await iterator.next() == nil)
    }

    /// Sending or ending after the end is refused and reported.
    @Test func sendAfterEndIsRefused() {
        let source = TestSource<Int, Never>()
        #expect(source.finish())
        #expect(!source.send(1))
        #expect(!source.finish())
        #expect(TestSource<Int, TestFailure>().fail(.boom))
    }

    /// `waitForDemand` returns once the consumer has taken everything and asks again.
    @Test func waitForDemandFollowsTheConsumer() async {
        let source = TestSource<Int, Never>()
        let consumer = Task {
            var seen: [Int] = []
            for await element in source { seen.append(element) }
            return seen
        }
        source.send(1)
        source.send(2)
        await source.waitForDemand()
        source.finish()
        #expect(await consumer.value == [1, 2])
        await source.waitForDemand()
    }

    /// Cancelling a waiting consumer ends its iteration and counts as termination.
    @Test func cancellingTheConsumerTerminates() async {
        let source = TestSource<Int, Never>()
        let consumer = Task { for await _ in source {} }
        await source.waitForDemand()
        #expect(source.activeIteratorCount == 1)
        consumer.cancel()
        await source.waitForTermination()
        await consumer.value
        #expect(source.iteratorCount == 1)
        #expect(source.activeIteratorCount == 0)
    }

    /// Releasing an iterator counts as termination.
    @Test func releasingTheIteratorTerminates() async throws {
        let source = TestSource<Int, Never>()
        source.send(7)
        var iterator: TestSource<Int, Never>.Iterator? = source.makeAsyncIterator()
        #expect(await iterator?.next() == 7)
        iterator = nil
        await source.waitForTermination()
        #expect(source.activeIteratorCount == 0)
    }
}
