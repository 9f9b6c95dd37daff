import SwitchyardStreams
import SwitchyardTestSupport
import SwitchyardTesting
import Testing

/// Issue 34: swift-async-algorithms' spellings of `collect` — `chunks(ofCount:)`,
/// `chunks(ofCount:or:)` and `chunked(by:)` with a `.repeating(every:clock:)` timer — behave
/// as the `collect` they stand for, on a manual clock.
@Suite(.scaledTimeLimit(minutes: 1))
struct ChunkSpellingTests {
    /// `chunks(ofCount:)`: full arrays, then the shorter rest; only as many pulls as needed;
    /// what was gathered before a failure comes before it.
    @Test func chunksOfCountEmitsFullArraysThenTheRest() async throws {
        let source = PullCountingSequence(count: 5)
        var iterator = source.chunks(ofCount: 2).makeAsyncIterator()
        #expect(await iterator.next() == [0, 1])
        #expect(source.pulls.count == 2)
        #expect(await iterator.next() == [2, 3])
        #expect(await iterator.next() == [4])
        #expect(await iterator.next() == nil)

        var failing = PullCountingSequence(count: 3, thenFailing: TestFailure.boom).chunks(ofCount: 2).makeAsyncIterator()
        #expect(try await failing.next() == [0, 1])
        #expect(try await failing.next() == [2])
        await #expect(throws: TestFailure.boom) { try await failing.next() }
    }

    /// `chunked(by: .repeating(every:clock:))`: the elements of each tick's window, nothing
    /// for an empty window, and the rest at the finish.
    @Test func chunkedByATimerEmitsEachWindow() async {
        await CollectScenarios.windowsEmitWhatArrivedInThem { $0.chunked(by: .repeating(every: .seconds(1), clock: $1)) }
    }

    /// `chunks(ofCount:or:)`: a full array goes out at once, before the tick; the tick then
    /// emits the rest of its window, and a failure comes after what is left.
    @Test func chunksOfCountOrTimerEmitsFullArraysAtOnce() async {
        await CollectScenarios.fullArraysGoOutAtOnce { $0.chunks(ofCount: 2, or: .repeating(every: .seconds(1), clock: $1)) }
    }

    /// `AsyncTimer.repeating(every:clock:)` is the timer of that interval and clock.
    @Test func repeatingTimerTicksEveryInterval() async {
        let clock = ManualClock()
        let ticks = Task {
            var iterator = AsyncTimer.repeating(every: .seconds(2), clock: clock).makeAsyncIterator()
            let first = await iterator.next()
            let second = await iterator.next()
            return [first, second].compactMap { $0?.offset }
        }
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(2))
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(2))
        #expect(await ticks.value == [.seconds(2), .seconds(4)])
    }
}
