import SwitchyardStreams
import SwitchyardTestSupport
import SwitchyardTesting
import Testing

/// The marble scenarios `collect(every:)`, `collect(count:orEvery:)` and their
/// swift-async-algorithms spellings share, over the operator `make` builds on a test source
/// and a manual clock (windows of one second; by count, arrays of two).
enum CollectScenarios {
    typealias Source = TestSource<Int, TestFailure>
    typealias Made = AsyncCollectTimedSequence<Source, ManualClock>

    /// Sends `values` and waits until the operator has read them all.
    static func send(_ values: [Int], to source: Source) async {
        for value in values { source.send(value) }
        await source.waitForDemand()
    }

    /// Windows of one second: `-1-2-|-3-|---|-4-` gives `[1, 2]`, `[3]`, nothing, and the rest
    /// `[4]` at the finish.
    static func windowsEmitWhatArrivedInThem(_ make: (Source, ManualClock) -> Made) async {
        let (clock, source, recorder) = recordTimed(make)
        await send([1, 2], to: source)
        await clock.waitForSleepers(count: 1)
        #expect(recorder.elements.isEmpty)
        clock.advance(by: .seconds(1))
        #expect(await recorder.waitForElements(count: 1) == [[1, 2]])
        await send([3], to: source)
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(1))
        #expect(await recorder.waitForElements(count: 2) == [[1, 2], [3]])
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(1))
        await clock.waitForSleepers(count: 1)
        #expect(recorder.elements.count == 2)
        await send([4], to: source)
        source.finish()
        #expect(await recorder.waitForCompletion() == .finished)
        #expect(recorder.elements == [[1, 2], [3], [4]])
    }

    /// By count or time: a full array goes out at once, the window keeps its pace, and a
    /// failure comes after the rest.
    static func fullArraysGoOutAtOnce(_ make: (Source, ManualClock) -> Made) async {
        let (clock, source, recorder) = recordTimed(make)
        await send([1, 2, 3], to: source)
        #expect(await recorder.waitForElements(count: 1) == [[1, 2]])
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(1))
        #expect(await recorder.waitForElements(count: 2) == [[1, 2], [3]])
        await send([4], to: source)
        source.fail(.boom)
        #expect(await recorder.waitForCompletion() == .failed(.boom))
        #expect(recorder.elements == [[1, 2], [3], [4]])
    }
}
