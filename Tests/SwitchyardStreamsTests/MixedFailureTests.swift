import SwitchyardStreams
import SwitchyardTestSupport
import SwitchyardTesting
import Testing

/// Issue 34 point 4: `zip`, `combineLatest` and `merge` of inputs whose failure types differ
/// (they needed `setFailureType` before), and `flatMap`/`flatMapLatest` of a failing outer
/// sequence with never-failing inner ones.
@Suite(.scaledTimeLimit(minutes: 1))
struct MixedFailureTests {
    /// A never-failing input beside a failing one: the result fails with `any Error`.
    @Test func zipCombineLatestAndMergeAcceptDifferentFailures() async {
        let never = AsyncElements([1, 2])
        let failing = PullCountingSequence(count: 1, from: 10, thenFailing: TestFailure.boom)
        let zipped: some AsyncSequence<(Int, Int), any Error> & Sendable = never.zip(failing)
        let zipRecorder = TestRecorder(zipped)
        #expect(await zipRecorder.waitForCompletion().failure is TestFailure)
        #expect(zipRecorder.elements.map { $0.0 + $0.1 } == [11])

        let combined: some AsyncSequence<(Int, Int), any Error> & Sendable = failing.combineLatest(never)
        let combineRecorder = TestRecorder(combined)
        #expect(await combineRecorder.waitForCompletion().failure is TestFailure)

        let merged: some AsyncSequence<Int, any Error> & Sendable = never.merge(with: failing)
        let mergeRecorder = TestRecorder(merged)
        #expect(await mergeRecorder.waitForCompletion().failure is TestFailure)
        #expect(Set(mergeRecorder.elements).isSubset(of: [1, 2, 10]))
    }

    /// Inputs of the same failure type keep it (the typed overload is chosen).
    @Test func sameFailuresStayTyped() async {
        let left = PullCountingSequence<TestFailure>(count: 2)
        let right = PullCountingSequence<TestFailure>(count: 2)
        let zipped: some AsyncSequence<(Int, Int), TestFailure> & Sendable = left.zip(right)
        #expect(await TestRecorder(zipped).waitForCompletion() == .finished)
    }

    /// A failing outer sequence with never-failing inner ones fails with the outer failure,
    /// after the inner elements emitted before it.
    @Test func flatMapsOfAFailingOuterWithNeverFailingInners() async {
        let latest: some AsyncSequence<Int, TestFailure> & Sendable = PullCountingSequence(count: 1, thenFailing: TestFailure.boom)
            .flatMapLatest { AsyncElements([$0, $0 + 1]) }
        let latestRecorder = TestRecorder(latest)
        #expect(await latestRecorder.waitForCompletion() == .failed(.boom))

        let source = TestSource<Int, TestFailure>()
        let all: some AsyncSequence<Int, TestFailure> & Sendable = source.flatMap(maxConcurrent: 1) { AsyncElements([$0, $0 * 10]) }
        let allRecorder = TestRecorder(all)
        source.send(1)
        #expect(await allRecorder.waitForElements(count: 2) == [1, 10])
        source.fail(.boom)
        #expect(await allRecorder.waitForCompletion() == .failed(.boom))
    }
}

extension TestRecorder.Completion {
    /// The failure, if it failed.
    var failure: Failure? {
        if case .failed(let failure) = self { return failure }
        return nil
    }
}
