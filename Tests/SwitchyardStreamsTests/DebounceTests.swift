@testable import SwitchyardStreams
import SwitchyardTestSupport
import SwitchyardTesting
import Testing

@Suite(.scaledTimeLimit(minutes: 1))
struct DebounceTests {
    /// Rule 2: debounce is trailing-edge: only the element followed by a quiet interval comes
    /// out, once the interval has passed.
    @Test("Rule 2: debounce emits the trailing element of a burst")
    func rule2TrailingEdge() async {
        let (clock, source, recorder) = recordTimed { $0.debounce(for: .milliseconds(250), clock: $1) }
        for value in 1...3 {
            source.send(value)
            await source.waitForDemand()
            await clock.waitForSleepers(count: 1)
            clock.advance(by: .milliseconds(100))
        }
        await clock.waitForSleepers(count: 1)
        #expect(recorder.elements.isEmpty)
        clock.advance(by: .milliseconds(149))
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .milliseconds(1))
        #expect(await recorder.waitForElements(count: 1) == [3])
        source.send(4)
        await source.waitForDemand()
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .milliseconds(250))
        #expect(await recorder.waitForElements(count: 2) == [3, 4])
    }

    /// Rule 2: when the upstream finishes, the element still waiting is delivered at once.
    @Test("Rule 2: debounce delivers the pending value on finish")
    func rule2FinishDeliversPending() async {
        let (clock, source, recorder) = recordTimed { $0.debounce(for: .seconds(1), clock: $1) }
        source.send(1)
        source.send(2)
        source.finish()
        #expect(await recorder.waitForCompletion() == .finished)
        #expect(recorder.elements == [2])
        #expect(clock.now == Instant(offset: .zero))
    }

    /// Rule 2: an upstream failure is kept and delivered even though no `next` was waiting
    /// when it arrived; the element still waiting is dropped.
    @Test("Rule 2: debounce delivers an upstream error when no next() is waiting")
    func rule2ErrorWithoutWaitingNext() async throws {
        let clock = ManualClock()
        let source = TestSource<Int, TestFailure>()
        let debounced = source.debounce(for: .milliseconds(250), clock: clock)
        let (gate, opened) = AsyncStream<Void>.makeStream()
        let consumer = Task { () -> (Int?, TestFailure?) in
            var iterator = debounced.makeAsyncIterator()
            let first = try? await iterator.next()
            for await _ in gate { break }
            do throws(TestFailure) {
                return (first ?? nil, try await iterator.next() == nil ? nil : .other)
            } catch {
                return (first ?? nil, error)
            }
        }
        source.send(1)
        await source.waitForDemand()
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .milliseconds(250))
        source.send(2)
        await source.waitForDemand()
        await clock.waitForSleepers(count: 1)
        source.fail(.boom)
        await clock.waitForSleepers(count: 0)
        opened.yield()
        let (first, failure) = await consumer.value
        #expect(first == 1)
        #expect(failure == .boom)
    }

    /// The machine moves the deadline with each element and emits only when it is reached.
    @Test func stateMachineMovesTheDeadline() {
        var machine = DebounceStateMachine<Int, Instant>(interval: .seconds(1))
        machine.received(1, at: Instant(offset: .zero))
        machine.received(2, at: Instant(offset: .milliseconds(500)))
        #expect(machine.deadline == Instant(offset: .milliseconds(1500)))
        #expect(machine.deadlineReached(at: Instant(offset: .seconds(1))) == nil)
        #expect(machine.deadlineReached(at: Instant(offset: .milliseconds(1500))) == 2)
        #expect(machine.deadline == nil)
        #expect(machine.upstreamFinished() == nil)
        machine.received(3, at: Instant(offset: .seconds(2)))
        #expect(machine.upstreamFinished() == 3)
        machine.received(4, at: Instant(offset: .seconds(3)))
        #expect(machine.upstreamFailed() == nil)
        #expect(machine.pending == nil)
    }
}
