import SwitchyardStreams
import SwitchyardTestSupport
import SwitchyardTesting
import Testing

/// A consumer that leaves in the middle of a busy stream, for every operator: its task is
/// cancelled while a producer keeps sending, and afterwards nothing of the operator runs.
@Suite(.scaledTimeLimit(minutes: 2))
struct ScenarioConsumerLeavesTests {
    enum Operator: String, CaseIterable, Sendable {
        case removeDuplicates, debounce, throttle, combineLatest, zip, merge, flatMapLatest
        case flatMap, scan, share, withLatestFrom, materialize, dematerialize, timeout, retry, decode

        /// The operator applied to `source`; two-input operators take a second, shared branch.
        func apply(to source: TestSource<Int, Never>, clock: ManualClock) -> any AsyncSequence & Sendable {
            switch self {
            case .removeDuplicates: source.removeDuplicates()
            case .debounce: source.debounce(for: .zero, clock: clock)
            case .throttle: source.throttle(for: .zero, clock: clock, latest: true)
            case .combineLatest: shared(source) { $0.combineLatest($0.map { $0 * 2 }) }
            case .zip: shared(source) { $0.zip($0.map { $0 * 2 }) }
            case .merge: shared(source) { $0.merge(with: $0.map { $0 * 2 }) }
            case .flatMapLatest: source.flatMapLatest { ImmediateSequence([$0, $0]) }
            case .flatMap: source.flatMap(maxConcurrent: 2) { ImmediateSequence([$0]) }
            case .scan: source.scan(0, +)
            case .share: source.share(replay: 1)
            // Not a shared branch: with share's unbounded default the primary branch can run
            // through all hundred elements before the other branch has a value, and then
            // nothing is ever emitted.
            case .withLatestFrom: source.withLatestFrom(CurrentValue(-1))
            case .materialize: source.materialize()
            case .dematerialize: source.materialize().dematerialize()
            case .timeout: source.timeout(.seconds(1), clock: clock)
            case .retry: source.retry(3)
            case .decode: source.map { "\($0)" }.decode(type: Int.self)
            }
        }

        private func shared<Result: AsyncSequence & Sendable>(
            _ source: TestSource<Int, Never>,
            _ build: (AsyncShareSequence<TestSource<Int, Never>>) -> Result
        ) -> Result {
            build(source.share())
        }
    }

    /// Consumes `sequence` until cancelled, reporting the first element.
    private static func consume<Consumed: AsyncSequence & Sendable>(
        _ sequence: Consumed,
        progress: AsyncStream<Void>.Continuation
    ) -> Task<Void, Never> {
        let iterator = sequence.makeAsyncIterator()
        return Task {
            var iterator = iterator
            while (try? await iterator.next(isolation: nil)) != nil {
                progress.yield()
            }
            progress.finish()
        }
    }

    /// Many times over: the source has sent a hundred elements and stays open, the consumer
    /// takes one and is cancelled in the middle of the rest; then it ends, the source sees its
    /// iterator go (so every task that read it has stopped), and no timer sleeps.
    @Test(arguments: Operator.allCases)
    func cancellationInTheMiddleStopsEverything(under: Operator) async {
        for _ in 0..<20 {
            let clock = ManualClock()
            let source = TestSource<Int, Never>()
            for value in 0..<100 { source.send(value) }
            let (progress, report) = AsyncStream<Void>.makeStream()
            let consumer = Self.consume(under.apply(to: source, clock: clock), progress: report)
            for await _ in progress { break }
            consumer.cancel()
            await consumer.value
            await source.waitForTermination()
            await clock.waitForSleepers(count: 0)
            #expect(source.activeIteratorCount == 0)
        }
    }
}
