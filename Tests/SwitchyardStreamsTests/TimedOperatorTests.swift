@testable import SwitchyardStreams
import SwitchyardTestSupport
import SwitchyardTesting
import Testing

/// What `debounce`, `throttle` and `timeout` share: an upstream task and a timer task, both
/// stopped by the consumer, and a precondition on the interval.
@Suite(.scaledTimeLimit(minutes: 1))
struct TimedOperatorTests {
    enum Operator: String, CaseIterable, Codable, Sendable {
        case debounce, throttle, timeout

        /// Records the operator, with an interval of one second on `clock`, over `source`.
        func record(_ source: TestSource<Int, Never>, clock: ManualClock, interval: Duration = .seconds(1)) -> TestRecorder<Int, Never> {
            switch self {
            case .debounce: TestRecorder(source.debounce(for: interval, clock: clock))
            case .throttle: TestRecorder(source.throttle(for: interval, clock: clock, latest: true))
            case .timeout: TestRecorder(source.timeout(interval, clock: clock))
            }
        }
    }

    /// Cancelling the consumer in the middle stops the upstream task and the timer task.
    @Test(arguments: Operator.allCases)
    func cancellationInTheMiddleStopsBothTasks(_ kind: Operator) async {
        let clock = ManualClock()
        let source = TestSource<Int, Never>()
        let recorder = kind.record(source, clock: clock)
        source.send(1)
        switch kind {
        case .debounce:
            await source.waitForDemand()
        case .throttle:
            // The second element is held for the window's end, so the timer sleeps.
            source.send(2)
            await recorder.waitForElements(count: 1)
        case .timeout:
            await recorder.waitForElements(count: 1)
        }
        await clock.waitForSleepers(count: 1)
        recorder.cancel()
        #expect(await recorder.waitForCompletion() == .finished)
        await source.waitForTermination()
        await clock.waitForSleepers(count: 0)
        if kind == .debounce { #expect(recorder.elements.isEmpty) }
    }

    /// A negative interval stops the program with a clear message.
    @Test(arguments: Operator.allCases)
    func negativeIntervalIsRejected(_ kind: Operator) async {
        await #expect(processExitsWith: .failure) { [kind = kind as Operator] in
            _ = kind.record(TestSource<Int, Never>(), clock: ManualClock(), interval: .seconds(-1))
        }
    }
}
