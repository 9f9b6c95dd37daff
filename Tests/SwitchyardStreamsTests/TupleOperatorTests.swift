@testable import SwitchyardStreams
import SwitchyardTestSupport
import SwitchyardTesting
import Testing

/// What `combineLatest` and `zip` share: one task per input, all stopped by the consumer.
@Suite(.scaledTimeLimit(minutes: 1))
struct TupleOperatorTests {
    enum Operator: CaseIterable, Sendable {
        case combineLatest, zip
    }

    /// Cancelling the consumer in the middle stops every input task.
    @Test(arguments: Operator.allCases)
    func cancellingTheConsumerStopsTheInputs(_ kind: Operator) async {
        let numbers = TestSource<Int, TestFailure>()
        let letters = TestSource<String, TestFailure>()
        let recorder = switch kind {
        case .combineLatest: TestRecorder(numbers.combineLatest(letters).map { "\($0)\($1)" })
        case .zip: TestRecorder(numbers.zip(letters).map { "\($0)\($1)" })
        }
        numbers.send(1)
        letters.send("a")
        await recorder.waitForElements(count: 1)
        recorder.cancel()
        #expect(await recorder.waitForCompletion() == .finished)
        await numbers.waitForTermination()
        await letters.waitForTermination()
    }
}
