import SwitchyardStreams
import SwitchyardTestSupport
import Testing

/// Issue 34 point 2: operators pull from a pull-based input only on demand, within a small
/// bound, so never-suspending inputs neither livelock them nor fill memory.
@Suite(.scaledTimeLimit(minutes: 2))
struct ReadAheadTests {
    /// What an operator may have pulled beyond what its consumer took: a zip's 64 undelivered
    /// tuples and 16 queued elements per input, share's 16 ahead of its fastest subscriber,
    /// plus the pulls in flight. Far below the inputs' 200,000 elements.
    static let slack = 64 + 16 + 2

    /// Three inputs that never suspend: zip emits tuples at once, and reads each input at
    /// most a small bound beyond the tuples taken (it read whole inputs ahead, livelocking
    /// two cores and growing ~125 MB/s on infinite ones).
    @Test func zipOfNeverSuspendingInputsReadsOnlyABoundAhead() async {
        let inputs = (0..<3).map { _ in PullCountingSequence(count: 200_000) }
        var iterator = zip(inputs[0], inputs[1], inputs[2]).makeAsyncIterator()
        var taken = 0
        while taken < 1_000, let (first, second, third) = await iterator.next() {
            #expect(first == taken && second == taken && third == taken)
            taken += 1
        }
        #expect(taken == 1_000)
        await Task.yield()
        for input in inputs {
            #expect(input.pulls.count <= taken + Self.slack)
        }
    }

    /// SAA's `test_share_cancellation_with_multiple_consumers`: two consumers of a shared
    /// source that never suspends take ten elements each and pause; the source is read only a
    /// little ahead of them (its reader spun, filling both buffers without bound), and
    /// cancelling them ends both.
    @Test func shareOfNeverSuspendingSourceReadsOnlyABoundAheadAndEndsOnCancel() async {
        let source = PullCountingSequence(count: 1_000_000)
        let shared = source.share()
        let paused = PullCounter()
        let consumers = (0..<2).map { _ in
            Task {
                var taken = 0
                for await _ in shared {
                    taken += 1
                    guard taken == 10 else { continue }
                    paused.add()
                    try? await Task.sleep(for: .seconds(3_600))
                }
                return taken
            }
        }
        await waitUntil("both consumers took ten") { paused.count == 2 }
        for _ in 0..<100 { await Task.yield() }
        #expect(source.pulls.count <= 10 + Self.slack)
        for consumer in consumers { consumer.cancel() }
        var counts: [Int] = []
        for consumer in consumers { counts.append(await consumer.value) }
        #expect(counts.allSatisfy { $0 >= 10 && $0 <= 10 + Self.slack })
        #expect(source.pulls.count <= 10 + Self.slack)
    }

    /// `zip([1, throw], [10, 20, 30])` emits `(1, 10)` before the failure every time: the
    /// failure of an input takes effect only after its earlier elements are paired.
    @Test func zipEmitsTheTupleBeforeAnInputsFailureEveryTime() async {
        var outcomes: [String: Int] = [:]
        for _ in 0..<500 {
            let failing = PullCountingSequence(count: 1, from: 1, thenFailing: TestFailure.boom)
            let tens = PullCountingSequence<TestFailure>(count: 3, from: 10, step: 10)
            var seen: [String] = []
            do {
                for try await (one, ten) in zip(failing, tens) { seen.append("(\(one), \(ten))") }
                seen.append("finished")
            } catch {
                seen.append("\(error)")
            }
            outcomes[seen.joined(separator: " "), default: 0] += 1
        }
        #expect(outcomes == ["(1, 10) boom": 500])
    }
}
