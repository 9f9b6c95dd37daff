import SwitchyardTestSupport
import Synchronization
import SwitchyardStreams
import SwitchyardTesting
import Testing

/// Exchange rates reloaded on demand, written as an app would: each reload fetches, a newer
/// reload cancels the fetch in flight, and a failed fetch becomes a message instead of ending
/// the screen.
enum RatesScreen {
    struct Rates: Sendable, Equatable {
        var euroInDollars: Double
    }

    struct FetchError: Error, Equatable {
        var message: String
    }

    enum State: Sendable, Equatable {
        case rates(Rates)
        case failed(String)
    }

    /// The fetch is any async call with a typed error; the screen maps its outcome to a state.
    static func states(
        reloads: some AsyncSequence<Void, Never> & Sendable,
        fetch: @escaping @Sendable () async throws(FetchError) -> Rates
    ) -> some AsyncSequence<State, Never> & Sendable {
        reloads.flatMapLatest { () async -> State in
            do throws(FetchError) {
                return .rates(try await fetch())
            } catch {
                return .failed(error.message)
            }
        }
    }
}

/// A scripted rates service: the first fetch hangs until it is cancelled and then answers
/// late with stale rates; later fetches answer from a script.
final class ScriptedRatesService: Sendable {
    private struct State {
        var fetches = 0
        var script: [Result<RatesScreen.Rates, RatesScreen.FetchError>]
    }

    private let state: Mutex<State>
    /// The number of each fetch that has started.
    let started: AsyncStream<Int>
    private let startedContinuation: AsyncStream<Int>.Continuation
    /// The number of each fetch that saw its cancellation.
    let cancelled: AsyncStream<Int>
    private let cancelledContinuation: AsyncStream<Int>.Continuation

    init(script: [Result<RatesScreen.Rates, RatesScreen.FetchError>]) {
        state = Mutex(State(script: script))
        (started, startedContinuation) = AsyncStream.makeStream()
        (cancelled, cancelledContinuation) = AsyncStream.makeStream()
    }

    func fetch() async throws(RatesScreen.FetchError) -> RatesScreen.Rates {
        let number = state.withLock { state in
            state.fetches += 1
            return state.fetches
        }
        startedContinuation.yield(number)
        if number == 1 {
            let (hang, release) = AsyncStream<Void>.makeStream()
            await withTaskCancellationHandler {
                for await _ in hang {}
            } onCancel: {
                release.finish()
            }
            cancelledContinuation.yield(number)
            return RatesScreen.Rates(euroInDollars: 0.5)
        }
        let answer = state.withLock { $0.script.removeFirst() }
        return try answer.get()
    }
}

@Suite(.scaledTimeLimit(minutes: 1))
struct ScenarioReloadRatesTests {
    /// A second reload cancels the first fetch (whose late answer never shows), its rates
    /// show, and a failing third fetch shows a message without ending the screen.
    @Test func secondReloadCancelsTheFirstFetch() async {
        let service = ScriptedRatesService(script: [
            .success(RatesScreen.Rates(euroInDollars: 1.08)),
            .failure(RatesScreen.FetchError(message: "offline")),
        ])
        let (reloads, reload) = AsyncStream<Void>.makeStream()
        let recorder = TestRecorder(RatesScreen.states(reloads: reloads, fetch: service.fetch))
        var started = service.started.makeAsyncIterator()
        var cancelled = service.cancelled.makeAsyncIterator()

        reload.yield()
        #expect(await started.next() == 1)
        reload.yield()
        #expect(await started.next() == 2)
        #expect(await cancelled.next() == 1)
        #expect(await recorder.waitForElements(count: 1) == [.rates(RatesScreen.Rates(euroInDollars: 1.08))])

        reload.yield()
        #expect(await started.next() == 3)
        #expect(await recorder.waitForElements(count: 2) == [
            .rates(RatesScreen.Rates(euroInDollars: 1.08)),
            .failed("offline"),
        ])

        reload.finish()
        #expect(await recorder.waitForCompletion() == .finished)
        #expect(recorder.elements.count == 2)
    }
}
