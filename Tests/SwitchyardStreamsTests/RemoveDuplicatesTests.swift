import SwitchyardStreams
import SwitchyardTestSupport
import SwitchyardTesting
import Testing

@Suite(.scaledTimeLimit(minutes: 1))
struct RemoveDuplicatesTests {
    struct Reading: Sendable, Equatable {
        var city: String
        var temperature: Int
    }

    /// Consecutive equal elements collapse into one; later repeats that are not consecutive pass.
    @Test func dropsConsecutiveRepeats() async throws {
        let source = TestSource<Int, TestFailure>()
        for value in [1, 1, 2, 2, 2, 1, 3, 3] { source.send(value) }
        source.finish()
        var seen: [Int] = []
        for try await value in source.removeDuplicates() { seen.append(value) }
        #expect(seen == [1, 2, 1, 3])
    }

    /// A predicate decides what counts as a repeat of the last emitted element.
    @Test func predicateDecidesRepeats() async throws {
        let source = TestSource<Int, Never>()
        for value in [10, 11, 12, 20, 21, 35] { source.send(value) }
        source.finish()
        var seen: [Int] = []
        for await value in source.removeDuplicates(by: { abs($0 - $1) < 5 }) { seen.append(value) }
        #expect(seen == [10, 20, 35])
    }

    /// A key path compares only the chosen property.
    @Test func keyPathComparesOneProperty() async throws {
        let source = TestSource<Reading, Never>()
        for reading in [Reading(city: "Oslo", temperature: 1), Reading(city: "Oslo", temperature: 4),
                        Reading(city: "Rome", temperature: 20)] { source.send(reading) }
        source.finish()
        var seen: [String] = []
        for await reading in source.removeDuplicates(by: \.city) { seen.append(reading.city) }
        #expect(seen == ["Oslo", "Rome"])
    }

    /// The typed failure passes through unchanged, after the elements before it.
    @Test func typedFailureSurvives() async {
        let source = TestSource<Int, TestFailure>()
        source.send(1)
        source.fail(.boom)
        let deduplicated: some AsyncSequence<Int, TestFailure> & Sendable = source.removeDuplicates()
        let recorder = TestRecorder(deduplicated)
        #expect(await recorder.waitForCompletion() == .failed(.boom))
        #expect(recorder.elements == [1])
    }

    /// Cancelling the consumer while it waits ends the iteration and releases the source.
    @Test func cancellationInTheMiddleStops() async {
        let source = TestSource<Int, TestFailure>()
        let recorder = TestRecorder(source.removeDuplicates())
        source.send(1)
        await recorder.waitForElements(count: 1)
        recorder.cancel()
        #expect(await recorder.waitForCompletion() == .finished)
        await source.waitForTermination()
    }
}
