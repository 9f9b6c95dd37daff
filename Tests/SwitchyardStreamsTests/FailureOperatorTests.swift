import SwitchyardStreams
import SwitchyardTesting
import Testing

/// Issue 12 point 9: the error operators, failing inner sequences under a never-failing
/// outer one, `timeout` on a never-failing sequence, and unlimited `flatMap`.
@Suite(.timeLimit(.minutes(1)))
struct FailureOperatorTests {
    enum Wrapped: Error, Equatable {
        case wrapped(TestFailure)
        case timedOut
    }

    /// `mapFailure`/`mapError` transform the failure and keep the elements.
    @Test func mapFailureTransforms() async {
        let source = TestSource<Int, TestFailure>()
        let recorder = TestRecorder(source.mapError { Wrapped.wrapped($0) })
        source.send(1)
        source.fail(.boom)
        #expect(await recorder.waitForCompletion() == .failed(.wrapped(.boom)))
        #expect(recorder.elements == [1])
        let other = TestSource<Int, TestFailure>()
        let mapped = TestRecorder(other.mapFailure { Wrapped.wrapped($0) })
        other.fail(.other)
        #expect(await mapped.waitForCompletion() == .failed(.wrapped(.other)))
    }

    /// `setFailureType(to:)` lets a never-failing sequence zip with a failing one.
    @Test func setFailureTypeCombines() async {
        let taps = Broadcast<Int>()
        let replies = TestSource<String, TestFailure>()
        let recorder = TestRecorder(taps.subscribe().setFailureType(to: TestFailure.self).zip(replies))
        taps.send(1)
        replies.send("a")
        #expect(await recorder.waitForElements(count: 1).map(\.1) == ["a"])
        replies.fail(.boom)
        #expect(await recorder.waitForCompletion() == .failed(.boom))
    }

    /// `catch` switches to the replacement after a failure; `replaceError(with:)` ends with
    /// one value.
    @Test func catchAndReplaceError() async {
        let source = TestSource<Int, TestFailure>()
        let caught = TestRecorder(source.catch { failure in AsyncJust(failure == .boom ? 99 : 0) })
        source.send(1)
        source.fail(.boom)
        #expect(await caught.waitForCompletion() == .finished)
        #expect(caught.elements == [1, 99])

        let other = TestSource<Int, TestFailure>()
        let replaced = TestRecorder(other.replaceError(with: -1))
        other.send(5)
        other.fail(.other)
        #expect(await replaced.waitForCompletion() == .finished)
        #expect(replaced.elements == [5, -1])

        let finishing = TestSource<Int, TestFailure>()
        let untouched = TestRecorder(finishing.replaceError(with: -1))
        finishing.send(3)
        finishing.finish()
        #expect(await untouched.waitForCompletion() == .finished)
        #expect(untouched.elements == [3])
    }

    /// `catch` with a failing replacement fails with the replacement's failure.
    @Test func catchWithFailingReplacement() async {
        let source = TestSource<Int, TestFailure>()
        let recorder = TestRecorder(source.catch { _ in AsyncFail(of: Int.self, Wrapped.timedOut) })
        source.fail(.boom)
        #expect(await recorder.waitForCompletion() == .failed(.timedOut))
    }

    /// `mapToResult` turns elements and the failure into values, then ends.
    @Test func mapToResultCarriesTheFailure() async {
        let source = TestSource<Int, TestFailure>()
        let recorder = TestRecorder(source.mapToResult())
        source.send(1)
        source.fail(.boom)
        #expect(await recorder.waitForCompletion() == .finished)
        #expect(recorder.elements == [.success(1), .failure(.boom)])
    }

    /// A never-failing outer switches to an inner sequence that can fail; the result fails
    /// with the inner failure.
    @Test func flatMapLatestWithFailingInner() async {
        let reloads = Broadcast<Int>()
        let request = TestSource<String, TestFailure>()
        let recorder = TestRecorder(reloads.subscribe().flatMapLatest { _ in request })
        reloads.send(1)
        request.send("rates")
        #expect(await recorder.waitForElements(count: 1) == ["rates"])
        request.fail(.boom)
        #expect(await recorder.waitForCompletion() == .failed(.boom))
    }

    /// The same for `flatMap` and for `flatMapLatest` with a throwing call.
    @Test func flatMapAndThrowingCallWithNeverFailingOuter() async {
        let loads = Broadcast<Int>()
        let request = TestSource<String, TestFailure>()
        let flattened = TestRecorder(loads.subscribe().flatMap { _ in request })
        loads.send(1)
        request.fail(.other)
        #expect(await flattened.waitForCompletion() == .failed(.other))

        let reloads = Broadcast<Int>()
        let called = TestRecorder(reloads.subscribe().flatMapLatest { (value: Int) async throws(TestFailure) -> Int in
            if value > 1 { throw .boom }
            return value * 10
        })
        reloads.send(1)
        #expect(await called.waitForElements(count: 1) == [10])
        reloads.send(2)
        #expect(await called.waitForCompletion() == .failed(.boom))
    }

    /// `flatMap` without `maxConcurrent` runs every inner sequence at once.
    @Test func flatMapWithoutLimitIsUnlimited() async {
        let outer = TestSource<Int, Never>()
        let inners = (0..<20).map { _ in TestSource<Int, Never>() }
        let recorder = TestRecorder(outer.flatMap { inners[$0] })
        for index in 0..<20 { outer.send(index) }
        for inner in inners { await inner.waitForDemand() }
        for (index, inner) in inners.enumerated().reversed() { inner.send(index) }
        #expect(Set(await recorder.waitForElements(count: 20)) == Set(0..<20))
    }

    /// `timeout` on a never-failing sequence can fail with a chosen error (or finish).
    @Test func timeoutOnANeverFailingSequence() async {
        let clock = ManualClock()
        let ticks = TestSource<Int, Never>()
        let recorder = TestRecorder(ticks.timeout(.seconds(5), clock: clock, failure: { Wrapped.timedOut }))
        ticks.send(1)
        #expect(await recorder.waitForElements(count: 1) == [1])
        await ticks.waitForDemand()
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(5))
        #expect(await recorder.waitForCompletion() == .failed(.timedOut))

        let quiet = TestSource<Int, Never>()
        let finishing = TestRecorder(quiet.timeout(.seconds(1), clock: clock))
        await quiet.waitForDemand()
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(1))
        #expect(await finishing.waitForCompletion() == .finished)
    }
}
