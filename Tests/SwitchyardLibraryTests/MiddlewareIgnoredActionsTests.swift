import Switchyard
import SwitchyardTestSupport
import Synchronization
import Testing

private enum FeedAction: Sendable, Equatable {
    case fetch(Int)
    case loaded(Int)
    case tick(Int)
}

/// The places app of issue 34: fetches answered by a held service, and a clock's ticks that the
/// fetching middleware ignores.
private struct Feed: Sendable, Equatable {
    var ticks = 0
    var loaded: [Int] = []

    static func reduce(_ state: inout Feed, _ action: FeedAction) {
        switch action {
        case .fetch: break
        case .loaded(let id): state.loaded.append(id)
        case .tick: state.ticks += 1
        }
    }
}

/// A service that records each request as it arrives and answers it when the test says so
/// (a gate, not a sleep).
private final class HeldService: Sendable {
    private let requests = Mutex<[Int]>([])
    private let answers: [Int: Gate] = [1: Gate(), 2: Gate()]

    var received: [Int] { requests.withLock { $0 } }

    func fetch(_ id: Int) async -> Int {
        requests.withLock { $0.append(id) }
        await answers[id]?.wait()
        return id
    }

    func answer(_ id: Int) { answers[id]?.open() }
}

private func fetchID(_ action: FeedAction) -> Int? {
    if case .fetch(let id) = action { id } else { nil }
}

/// Issue 34 point 1: an action the middleware does nothing with never waits behind another
/// action's work.
@Suite(.scaledTimeLimit(minutes: 3))
struct MiddlewareIgnoredActionsTests {
    private static let tickCount = 2000

    /// Dispatches the ticks, each reduced before the next; false when they do not all get
    /// through within a generous deadline (the store stopped taking actions).
    private func dispatchTicks(_ store: Store<Feed, FeedAction>) async -> Bool {
        await withDeadline(60) {
            for index in 0..<Self.tickCount { await store.dispatch(.tick(index)) }
            return true
        } ?? false
    }

    /// A store whose middleware picks the fetches with `on:` and runs them under `policy`.
    private func selectedFetches(policy: WorkPolicy) -> (HeldService, Store<Feed, FeedAction>) {
        let service = HeldService()
        let places = Middleware<Feed, FeedAction>(on: fetchID, policy: policy) { _, id, emit in
            await emit(.loaded(await service.fetch(id)))
        }
        return (service, Store(initialState: Feed(), reducer: Feed.reduce, middleware: [places]))
    }

    /// The closure form of docs/library.md, default policy: 2,000 ticks are all reduced while the first
    /// fetch is pending, and the next fetch reaches the service at once (as a TCA effect or a
    /// saga's `takeEvery` would).
    @Test func ticksPassASlowFetchUnderTheDefaultPolicy() async {
        let service = HeldService()
        let places = Middleware<Feed, FeedAction>(effect: { _, action, emit in
            guard case .fetch(let id) = action else { return }
            await emit(.loaded(await service.fetch(id)))
        })
        let store = Store(initialState: Feed(), reducer: Feed.reduce, middleware: [places])
        await store.dispatch(.fetch(1))
        await waitUntil("the first request reaches the service") { service.received == [1] }
        #expect(await dispatchTicks(store))
        #expect(store.currentState.ticks == Self.tickCount)
        #expect(store.currentState.loaded.isEmpty)
        await store.dispatch(.fetch(2))
        await waitUntil("the second request reaches the service while the first is pending") {
            service.received == [1, 2]
        }
        service.answer(2)
        service.answer(1)
        await waitUntil("both answers are reduced") { Set(store.currentState.loaded) == [1, 2] }
        #expect(store.statistics.middlewareDrops == 0)
        #expect(store.statistics.rejected == 0)
    }

    /// `.queue` keeps the order of the work alone: with the fetches picked by `on:`, 2,000
    /// ticks are reduced while the first fetch is pending and the second waits its turn; the
    /// second request reaches the service once the first is answered.
    @Test func queueOrdersOnlyTheSelectedWork() async {
        let (service, store) = selectedFetches(policy: .queue)
        await store.dispatch(.fetch(1))
        await store.dispatch(.fetch(2))
        await waitUntil("the first request reaches the service") { service.received == [1] }
        #expect(await dispatchTicks(store))
        #expect(store.currentState.ticks == Self.tickCount)
        #expect(service.received == [1])
        #expect(store.currentState.loaded.isEmpty)
        service.answer(1)
        await waitUntil("the second request reaches the service after the first answer") {
            service.received == [1, 2]
        }
        #expect(store.currentState.loaded == [1])
        service.answer(2)
        await waitUntil("the second answer is reduced") { store.currentState.loaded == [1, 2] }
        #expect(store.statistics.middlewareDrops == 0)
        #expect(store.statistics.effectsStarted == 2)
    }

    /// `.latest` cancels only for a selected action: ticks arriving while a fetch is pending
    /// leave it running, and its answer lands.
    @Test func latestIsNotCancelledByIgnoredActions() async {
        let (service, store) = selectedFetches(policy: .latest)
        await store.dispatch(.fetch(1))
        await waitUntil("the request reaches the service") { service.received == [1] }
        for index in 0..<10 { await store.dispatch(.tick(index)) }
        service.answer(1)
        await waitUntil("the answer is reduced") { store.currentState.loaded == [1] }
        #expect(store.statistics.effectsCancelled == 0)
        #expect(store.statistics.effectOutputsDiscarded == 0)
    }
}
