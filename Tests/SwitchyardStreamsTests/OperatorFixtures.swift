import SwitchyardStreams
import SwitchyardTesting
import Testing

/// A source of `Int`s that fails with ``TestFailure``: what most operator tests feed.
typealias IntSource = TestSource<Int, TestFailure>

/// The start of a time-based operator's test: a manual clock, a source, and a recorder of the
/// operator `make` builds over both (subscribed before this returns).
///
/// ```swift
/// let (clock, source, recorder) = recordTimed { $0.debounce(for: .seconds(1), clock: $1) }
/// ```
func recordTimed<Operator: AsyncSequence & Sendable>(
    _ make: (IntSource, ManualClock) -> Operator
) -> (ManualClock, IntSource, TestRecorder<Operator.Element, TestFailure>)
where Operator.Element: Sendable, Operator.Failure == TestFailure {
    let clock = ManualClock()
    let source = IntSource()
    return (clock, source, TestRecorder(make(source, clock)))
}

/// The start of a two-input operator's test: two fresh sources of the given element types and
/// failure, and a recorder of the operator `make` builds over them (subscribed before this
/// returns).
///
/// ```swift
/// let (numbers, letters, recorder) = recordTwo(Int.self, String.self, failure: TestFailure.self) { $0.combineLatest($1) }
/// ```
func recordTwo<First: Sendable, Second: Sendable, Failure: Error, Operator: AsyncSequence & Sendable>(
    _ first: First.Type,
    _ second: Second.Type,
    failure: Failure.Type,
    _ make: (TestSource<First, Failure>, TestSource<Second, Failure>) -> Operator
) -> (TestSource<First, Failure>, TestSource<Second, Failure>, TestRecorder<Operator.Element, Failure>)
where Operator.Element: Sendable, Operator.Failure == Failure {
    let firstSource = TestSource<First, Failure>()
    let secondSource = TestSource<Second, Failure>()
    return (firstSource, secondSource, TestRecorder(make(firstSource, secondSource)))
}

/// The instants of the manual clock that the time-based operators' tests run on.
typealias Instant = ManualClock.Instant

/// Cancels the consumer of a two-input operator in the middle of its run and checks that the
/// operator ends quietly and stops reading both inputs (their tasks are cancelled).
func expectCancellingStopsBoth<Element: Sendable, First: Sendable, Second: Sendable>(
    _ recorder: TestRecorder<Element, Never>,
    _ first: TestSource<First, Never>,
    _ second: TestSource<Second, Never>,
    sourceLocation: SourceLocation = #_sourceLocation
) async {
    recorder.cancel()
    #expect(await recorder.waitForCompletion() == .finished, sourceLocation: sourceLocation)
    await first.waitForTermination()
    await second.waitForTermination()
}
