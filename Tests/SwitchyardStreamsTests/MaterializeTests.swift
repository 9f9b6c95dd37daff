import SwitchyardStreams
import SwitchyardTestSupport
import SwitchyardTesting
import Testing

@Suite(.scaledTimeLimit(minutes: 1))
struct MaterializeTests {
    /// Elements and the failure become values, and the sequence then ends.
    @Test func failureBecomesTheLastEvent() async {
        let source = TestSource<Int, TestFailure>()
        source.send(1)
        source.send(2)
        source.fail(.boom)
        var events: [StreamEvent<Int, TestFailure>] = []
        for await event in source.materialize() { events.append(event) }
        #expect(events == [.element(1), .element(2), .failure(.boom)])
        #expect(events.last?.failure == .boom)
        #expect(events.first?.element == 1)
    }

    /// A finish becomes a `.finished` event.
    @Test func finishBecomesAnEvent() async {
        let source = TestSource<Int, TestFailure>()
        source.send(1)
        source.finish()
        var events: [StreamEvent<Int, TestFailure>] = []
        for await event in source.materialize() { events.append(event) }
        #expect(events == [.element(1), .finished])
    }

    /// Dematerializing restores the elements and the typed failure.
    @Test func dematerializeRestoresTheTypedFailure() async {
        let source = TestSource<Int, TestFailure>()
        source.send(1)
        source.fail(.other)
        let restored: some AsyncSequence<Int, TestFailure> & Sendable = source.materialize().dematerialize()
        let recorder = TestRecorder(restored)
        #expect(await recorder.waitForCompletion() == .failed(.other))
        #expect(recorder.elements == [1])
    }

    /// Dematerializing stops at `.finished` and reads nothing after it.
    @Test func dematerializeStopsAtFinished() async throws {
        let events = TestSource<StreamEvent<Int, TestFailure>, Never>()
        events.send(.element(1))
        events.send(.finished)
        events.send(.element(2))
        var seen: [Int] = []
        for try await value in events.dematerialize() { seen.append(value) }
        #expect(seen == [1])
        #expect(events.bufferedCount == 1)
    }

    /// Events that end without `.finished` end the dematerialized sequence.
    @Test func dematerializeEndsWithItsEvents() async throws {
        let events = TestSource<StreamEvent<Int, TestFailure>, Never>()
        events.send(.element(3))
        events.finish()
        var seen: [Int] = []
        for try await value in events.dematerialize() { seen.append(value) }
        #expect(seen == [3])
    }

    /// Cancelling the consumer in the middle ends both directions and releases the source.
    @Test func cancellationInTheMiddleStops() async {
        let source = TestSource<Int, TestFailure>()
        let recorder = TestRecorder(source.materialize().dematerialize())
        source.send(1)
        await recorder.waitForElements(count: 1)
        recorder.cancel()
        #expect(await recorder.waitForCompletion() == .finished)
        await source.waitForTermination()
    }
}
