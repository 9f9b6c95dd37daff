import SwitchyardStreams
import SwitchyardTestSupport
import SwitchyardTesting
import Testing

/// Issue 34 point 4: the pull-based operators that run in the consumer's `next`, with the
/// peers' semantics.
@Suite(.scaledTimeLimit(minutes: 1))
struct SequencingOperatorTests {
    /// Everything `sequence` emits, and how it ended.
    func record<S: AsyncSequence>(_ sequence: S) async -> (elements: [S.Element], failure: S.Failure?) {
        var elements: [S.Element] = []
        var iterator = sequence.makeAsyncIterator()
        do throws(S.Failure) {
            while let element = try await iterator.next(isolation: nil) { elements.append(element) }
            let after = try await iterator.next(isolation: nil)
            #expect(after == nil)
            return (elements, nil)
        } catch {
            let again = try? await iterator.next(isolation: nil)
            #expect(again == nil)
            return (elements, error)
        }
    }

    /// `collect(count:)`: full arrays, then the shorter rest; only as many pulls as needed.
    @Test func collectByCountEmitsFullArraysThenTheRest() async {
        let source = PullCountingSequence(count: 7)
        var iterator = source.collect(count: 3).makeAsyncIterator()
        #expect(await iterator.next() == [0, 1, 2])
        #expect(source.pulls.count == 3)
        #expect(await iterator.next() == [3, 4, 5])
        #expect(await iterator.next() == [6])
        #expect(await iterator.next() == nil)
        #expect(await record(PullCountingSequence(count: 0).collect(count: 3)).elements.isEmpty)
    }

    /// `collect(count:)` emits what it gathered before a failure, then the failure, once.
    @Test func collectByCountEmitsTheRestBeforeAFailure() async {
        let failing = PullCountingSequence(count: 4, thenFailing: TestFailure.boom).collect(count: 3)
        let (elements, failure) = await record(failing)
        #expect(elements == [[0, 1, 2], [3]])
        #expect(failure == .boom)
        let (none, immediate) = await record(PullCountingSequence(count: 3, thenFailing: TestFailure.boom).collect(count: 3))
        #expect(none == [[0, 1, 2]] && immediate == .boom)
    }

    /// `replaceEmpty(with:)`: the value only for an empty sequence that finishes.
    @Test func replaceEmptyOnlyReplacesAnEmptyFinish() async {
        #expect(await record(AsyncEmpty<Int, Never>().replaceEmpty(with: 9)).elements == [9])
        #expect(await record(AsyncElements([1, 2]).replaceEmpty(with: 9)).elements == [1, 2])
        let (elements, failure) = await record(AsyncFail(of: Int.self, TestFailure.boom).replaceEmpty(with: 9))
        #expect(elements.isEmpty && failure == .boom)
    }

    /// `ignoreOutput()`: reads everything, emits nothing, ends as the base ends.
    @Test func ignoreOutputReadsToTheEnd() async {
        let source = PullCountingSequence(count: 5)
        for await _ in source.ignoreOutput() {}
        #expect(source.pulls.count == 6)
        let (_, failure) = await record(PullCountingSequence(count: 2, thenFailing: TestFailure.boom).ignoreOutput())
        #expect(failure == .boom)
    }

    /// `adjacentPairs()`: each element with the one before it.
    @Test func adjacentPairsPairsNeighbours() async {
        let pairs = await record(AsyncElements([1, 2, 3, 4]).adjacentPairs()).elements
        #expect(pairs.map { [$0.0, $0.1] } == [[1, 2], [2, 3], [3, 4]])
        #expect(await record(AsyncElements([1]).adjacentPairs()).elements.isEmpty)
        let (some, failure) = await record(PullCountingSequence(count: 2, thenFailing: TestFailure.boom).adjacentPairs())
        #expect(some.count == 1 && failure == .boom)
    }

    /// `interspersed(with:)`: a separator between two elements, never first or last.
    @Test func interspersedPutsSeparatorsBetween() async {
        #expect(await record(AsyncElements([1, 2, 3]).interspersed(with: 0)).elements == [1, 0, 2, 0, 3])
        #expect(await record(AsyncElements([1]).interspersed(with: 0)).elements == [1])
        #expect(await record(AsyncElements([Int]()).interspersed(with: 0)).elements.isEmpty)
        let (elements, failure) = await record(PullCountingSequence(count: 2, thenFailing: TestFailure.boom).interspersed(with: -1))
        #expect(elements == [0, -1, 1] && failure == .boom)
    }

    /// `prepend` and `append`: elements or a whole sequence before or after; the second
    /// sequence is iterated only once the first has finished, and never after a failure.
    @Test func prependAndAppendConcatenate() async {
        #expect(await record(AsyncElements([2, 3]).prepend(0, 1)).elements == [0, 1, 2, 3])
        #expect(await record(AsyncElements([2, 3]).append(4, 5)).elements == [2, 3, 4, 5])
        #expect(await record(AsyncElements([2]).prepend(AsyncElements([1])).append(AsyncElements([3]))).elements == [1, 2, 3])
        let after = TestSource<Int, TestFailure>()
        let failing = PullCountingSequence(count: 1, thenFailing: TestFailure.boom).append(after)
        let (elements, failure) = await record(failing)
        #expect(elements == [0] && failure == .boom)
        #expect(after.iteratorCount == 0)
    }

    /// The finishing operators: `first()`, `last()`, `last(where:)`, `count()`.
    @Test func finishingOperators() async throws {
        let source = PullCountingSequence(count: 5)
        #expect(await source.first() == 0)
        #expect(source.pulls.count == 1)
        #expect(await source.last() == 4)
        #expect(await source.last { $0 % 2 == 1 } == 3)
        #expect(await source.count() == 5)
        #expect(await AsyncEmpty<Int, Never>().last() == nil)
        await #expect(throws: TestFailure.boom) {
            try await PullCountingSequence(count: 2, thenFailing: TestFailure.boom).last()
        }
    }
}
