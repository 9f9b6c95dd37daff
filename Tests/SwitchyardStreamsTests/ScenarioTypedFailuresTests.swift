import SwitchyardStreams
import SwitchyardTestSupport
import SwitchyardTesting
import Testing

/// Rule 8 across the whole catalog: a pipeline over a source that fails with `TestFailure` has
/// `TestFailure` as its static failure type after every operator (the `some AsyncSequence<_,
/// TestFailure>` annotations fail to compile otherwise), and the failure arrives at run time.
@Suite(.scaledTimeLimit(minutes: 1))
struct ScenarioTypedFailuresTests {
    /// Runs `sequence` after `source` sent one element and failed; returns the typed failure.
    private func failure<Failing: AsyncSequence<Element, TestFailure> & Sendable, Element: Sendable>(
        of sequence: Failing,
        source: TestSource<Int, TestFailure>
    ) async -> TestFailure? {
        let recorder = TestRecorder(sequence)
        source.send(1)
        source.fail(.boom)
        guard case .failed(let failure) = await recorder.waitForCompletion() else { return nil }
        return failure
    }

    /// Rule 8: typed failures survive every operator.
    @Test("Rule 8: typed failures survive every operator")
    func rule8TypedFailuresSurviveEveryOperator() async {
        let clock = ManualClock()
        func source() -> TestSource<Int, TestFailure> { TestSource() }
        @Sendable func other() -> TestSource<Int, TestFailure> {
            let other = TestSource<Int, TestFailure>()
            other.send(2)
            return other
        }
        var failures: [String: TestFailure?] = [:]

        var input = source()
        let deduplicated: some AsyncSequence<Int, TestFailure> & Sendable = input.removeDuplicates()
        failures["removeDuplicates"] = await failure(of: deduplicated, source: input)
        input = source()
        let debounced: some AsyncSequence<Int, TestFailure> & Sendable = input.debounce(for: .seconds(1), clock: clock)
        failures["debounce"] = await failure(of: debounced, source: input)
        input = source()
        let throttled: some AsyncSequence<Int, TestFailure> & Sendable = input.throttle(for: .seconds(1), clock: clock, latest: true)
        failures["throttle"] = await failure(of: throttled, source: input)
        input = source()
        let combined: some AsyncSequence<(Int, Int), TestFailure> & Sendable = input.combineLatest(other())
        failures["combineLatest"] = await failure(of: combined, source: input)
        input = source()
        let zipped: some AsyncSequence<(Int, Int), TestFailure> & Sendable = input.zip(other())
        failures["zip"] = await failure(of: zipped, source: input)
        input = source()
        let merged: some AsyncSequence<Int, TestFailure> & Sendable = input.merge(with: other())
        failures["merge"] = await failure(of: merged, source: input)
        input = source()
        let latest: some AsyncSequence<Int, TestFailure> & Sendable = input.flatMapLatest { _ in other() }
        failures["flatMapLatest"] = await failure(of: latest, source: input)
        input = source()
        let flattened: some AsyncSequence<Int, TestFailure> & Sendable = input.flatMap(maxConcurrent: 2) { _ in other() }
        failures["flatMap"] = await failure(of: flattened, source: input)
        input = source()
        let scanned: some AsyncSequence<Int, TestFailure> & Sendable = input.scan(0, +)
        failures["scan"] = await failure(of: scanned, source: input)
        input = source()
        let shared: some AsyncSequence<Int, TestFailure> & Sendable = input.share(replay: 1)
        failures["share"] = await failure(of: shared, source: input)
        input = source()
        let paired: some AsyncSequence<(Int, Int), TestFailure> & Sendable = input.withLatestFrom(other())
        failures["withLatestFrom"] = await failure(of: paired, source: input)
        input = source()
        let restored: some AsyncSequence<Int, TestFailure> & Sendable = input.materialize().dematerialize()
        failures["materialize/dematerialize"] = await failure(of: restored, source: input)
        input = source()
        let timed: some AsyncSequence<Int, TestFailure> & Sendable = input.timeout(.seconds(1), clock: clock)
        failures["timeout"] = await failure(of: timed, source: input)
        let retried: some AsyncSequence<Int, TestFailure> & Sendable = RetryTests.TypedFlaky(failures: 9).retry(2)
        if case .failed(let failure) = await TestRecorder(retried).waitForCompletion() { failures["retry"] = failure }

        #expect(failures.count == 14)
        for (name, failure) in failures.sorted(by: { $0.key < $1.key }) {
            #expect(failure == .boom, "\(name) lost the typed failure")
        }
    }

    /// Rule 8: materialize turns the typed failure into a value, and JSON decode keeps it
    /// inside its own failure type.
    @Test("Rule 8: materialize and decode carry the typed failure")
    func rule8FailureAsValueAndWrapped() async {
        let source = TestSource<Int, TestFailure>()
        source.fail(.boom)
        var events: [StreamEvent<Int, TestFailure>] = []
        for await event in source.materialize() { events.append(event) }
        #expect(events == [.failure(.boom)])

        let lines = TestSource<String, TestFailure>()
        lines.fail(.other)
        let decoded: some AsyncSequence<Int, JSONDecodeFailure<TestFailure>> & Sendable = lines.decode(type: Int.self)
        guard case .failed(.upstream(let failure)) = await TestRecorder(decoded).waitForCompletion() else {
            Issue.record("decode lost the upstream failure")
            return
        }
        #expect(failure == .other)
    }
}
