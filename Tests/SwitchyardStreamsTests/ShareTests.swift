import SwitchyardTestSupport
import Synchronization
@testable import SwitchyardStreams
import SwitchyardTesting
import Testing

@Suite(.scaledTimeLimit(minutes: 1))
struct ShareTests {
    /// `count` recorders of `shared`, returned once each has received the first element
    /// `send` sends.
    private func subscribedRecorders<Shared: AsyncSequence & Sendable>(
        _ count: Int,
        of shared: Shared,
        afterSending send: () -> Void
    ) async -> [TestRecorder<Shared.Element, Shared.Failure>] {
        let recorders = (0..<count).map { _ in TestRecorder(shared) }
        send()
        for recorder in recorders { await recorder.waitForElements(count: 1) }
        return recorders
    }

    /// Rule 5: a new subscriber sees the next element, and nothing from before it subscribed.
    @Test("Rule 5: a new subscriber sees the next send, no replay unless asked for")
    func rule5NewSubscriberSeesTheNextElement() async throws {
        let source = TestSource<Int, TestFailure>()
        let shared = source.share()
        var first = shared.makeAsyncIterator()
        source.send(1)
        #expect(try await first.next() == 1)
        var second = shared.makeAsyncIterator()
        source.send(2)
        await source.waitForDemand()
        #expect(try await second.next() == 2)
        #expect(try await first.next() == 2)
        #expect(source.iteratorCount == 1)
    }

    /// Rule 5: with replay, a new subscriber first gets the latest elements.
    @Test("Rule 5: replay is given only when asked for")
    func rule5ReplayWhenAskedFor() async throws {
        let source = TestSource<Int, TestFailure>()
        let shared = source.share(replay: 2)
        var first = shared.makeAsyncIterator()
        for value in 1...3 { source.send(value) }
        #expect(try await first.next() == 1)
        await source.waitForDemand()
        var late = shared.makeAsyncIterator()
        source.send(4)
        #expect(try await late.next() == 2)
        #expect(try await late.next() == 3)
        #expect(try await late.next() == 4)
    }

    /// Rule 6: each subscriber gets every element in order, per sender, when many tasks send
    /// at once.
    @Test("Rule 6: per-subscriber FIFO with sends from several tasks")
    func rule6PerSubscriberFIFOWithManySenders() async {
        let senders = 4
        let perSender = 2_000
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let shared = stream.share()
        var consumers: [Task<(count: Int, outOfOrder: Int), Never>] = []
        for _ in 0..<3 {
            let subscriber = shared.makeAsyncIterator()
            consumers.append(Task {
                var iterator = subscriber
                var next = Array(repeating: 0, count: senders)
                var count = 0
                var outOfOrder = 0
                while let value = await iterator.next() {
                    let (sender, sequence) = value.quotientAndRemainder(dividingBy: 1_000_000)
                    if sequence != next[sender] { outOfOrder += 1 }
                    next[sender] = sequence + 1
                    count += 1
                }
                return (count, outOfOrder)
            })
        }
        await withTaskGroup(of: Void.self) { group in
            for sender in 0..<senders {
                group.addTask {
                    for sequence in 0..<perSender { continuation.yield(sender * 1_000_000 + sequence) }
                }
            }
        }
        continuation.finish()
        for consumer in consumers {
            let result = await consumer.value
            #expect(result.count == senders * perSender)
            #expect(result.outOfOrder == 0)
        }
    }

    /// Rule 6: a send made from inside a subscriber, while it handles an element, is queued
    /// and delivered after the elements already sent.
    @Test("Rule 6: a send from inside a subscriber is delivered after the current element")
    func rule6SendFromInsideASubscriberIsQueued() async throws {
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        continuation.yield(1)
        continuation.yield(2)
        let shared = stream.share()
        var handler = shared.makeAsyncIterator()
        var observer = shared.makeAsyncIterator()
        #expect(await handler.next() == 1)
        continuation.yield(100)
        #expect(await handler.next() == 2)
        #expect(await handler.next() == 100)
        #expect(await observer.next() == 1)
        #expect(await observer.next() == 2)
        #expect(await observer.next() == 100)
    }

    /// Rule 7: cancelling one subscriber ends only it; the others go on.
    @Test("Rule 7: cancelling one subscriber removes only it")
    func rule7CancellingOneRemovesOnlyIt() async {
        let source = TestSource<Int, TestFailure>()
        let shared = source.share()
        let recorders = await subscribedRecorders(2, of: shared) { source.send(1) }
        let (leaving, staying) = (recorders[0], recorders[1])
        leaving.cancel()
        #expect(await leaving.waitForCompletion() == .finished)
        source.send(2)
        #expect(await staying.waitForElements(count: 2) == [1, 2])
        #expect(source.activeIteratorCount == 1)
        #expect(leaving.elements == [1])
    }

    /// Rule 7: the upstream's finish wakes every waiting subscriber.
    @Test("Rule 7: finish wakes every waiting iterator")
    func rule7FinishWakesEveryWaitingIterator() async {
        let source = TestSource<Int, TestFailure>()
        let shared = source.share()
        let recorders = await subscribedRecorders(5, of: shared) { source.send(1) }
        await source.waitForDemand()
        source.finish()
        for recorder in recorders { #expect(await recorder.waitForCompletion() == .finished) }
    }

    /// Rule 7: the upstream is cancelled when the last subscriber leaves, and its termination
    /// handler runs exactly once.
    @Test("Rule 7: upstream is cancelled once, when the last subscriber leaves")
    func rule7UpstreamCancelledOnceWhenTheLastLeaves() async {
        let terminations = Mutex<[String]>([])
        let (terminated, signal) = AsyncStream<Void>.makeStream()
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        continuation.onTermination = { termination in
            terminations.withLock { $0.append("\(termination)") }
            signal.yield()
        }
        let shared = stream.share()
        let recorders = await subscribedRecorders(2, of: shared) { continuation.yield(1) }
        let (first, second) = (recorders[0], recorders[1])
        first.cancel()
        await first.waitForCompletion()
        #expect(terminations.withLock { $0 }.isEmpty)
        second.cancel()
        await second.waitForCompletion()
        for await _ in terminated { break }
        continuation.yield(2)
        continuation.finish()
        #expect(terminations.withLock { $0 } == ["cancelled"])
    }

    /// Making the iterator of a chain subscribes every branch to the shared upstream at once,
    /// so even the first element reaches every branch.
    @Test func makingTheIteratorSubscribesEveryBranch() async {
        let source = TestSource<Int, Never>()
        let shared = source.share()
        let doubled = shared.map { $0 * 2 }
        let negated = shared.map { -$0 }
        var iterator = doubled.merge(with: negated, shared).makeAsyncIterator()
        source.send(1)
        var seen: [Int] = []
        for _ in 0..<3 { if let value = await iterator.next() { seen.append(value) } }
        #expect(seen.sorted() == [-1, 1, 2])
        #expect(source.iteratorCount == 1)
    }

    /// Releasing every iterator cancels the upstream; a later subscriber starts a new iteration.
    @Test func lastReleaseDisconnectsAndALaterSubscriberReconnects() async throws {
        let source = TestSource<Int, Never>()
        let shared = source.share()
        var first: AsyncShareSequence<TestSource<Int, Never>>.Iterator? = shared.makeAsyncIterator()
        var second: AsyncShareSequence<TestSource<Int, Never>>.Iterator? = shared.makeAsyncIterator()
        source.send(1)
        #expect(await first?.next() == 1)
        first = nil
        #expect(source.activeIteratorCount == 1)
        #expect(await second?.next() == 1)
        second = nil
        await source.waitForTermination()
        var third = shared.makeAsyncIterator()
        source.send(2)
        #expect(await third.next() == 2)
        #expect(source.iteratorCount == 2)
    }

    /// A subscriber that arrives after the end gets the replay and the end at once.
    @Test func lateSubscriberGetsReplayAndTheEnd() async throws {
        let source = TestSource<Int, TestFailure>()
        let shared = source.share(replay: 1)
        let early = TestRecorder(shared)
        source.send(1)
        source.send(2)
        source.fail(.boom)
        #expect(await early.waitForCompletion() == .failed(.boom))
        let late = TestRecorder(shared)
        #expect(await late.waitForCompletion() == .failed(.boom))
        #expect(late.elements == [2])
        #expect(source.iteratorCount == 1)
    }

    /// The typed failure reaches every subscriber.
    @Test func typedFailureSurvivesForEverySubscriber() async {
        let source = TestSource<Int, TestFailure>()
        let shared: some AsyncSequence<Int, TestFailure> & Sendable = source.share()
        let recorders = await subscribedRecorders(3, of: shared) { source.send(1) }
        source.fail(.other)
        for recorder in recorders {
            #expect(await recorder.waitForCompletion() == .failed(.other))
            #expect(recorder.elements == [1])
        }
    }

    /// A full subscriber drops per its policy and never holds the upstream back: the upstream
    /// is read to its end while that subscriber takes nothing.
    @Test(arguments: [
        (OverflowPolicy.dropOldest, [4, 5]),
        (OverflowPolicy.dropNewest, [1, 2]),
        (OverflowPolicy.latest, [5]),
    ])
    func fullSubscriberDropsPerPolicy(policy: OverflowPolicy, kept: [Int]) async throws {
        let source = TestSource<Int, Never>()
        let shared = source.share(buffer: 2, whenFull: policy)
        var slow = shared.makeAsyncIterator()
        let other = TestRecorder(shared)
        for value in 1...5 { source.send(value) }
        source.finish()
        #expect(await other.waitForCompletion() == .finished)
        await source.waitForDemand()
        var seen: [Int] = []
        while let value = await slow.next() { seen.append(value) }
        #expect(seen == kept)
    }

    /// With `.suspendProducer` a slow subscriber holds the upstream back instead of losing
    /// elements: no more than its buffer (and the element in hand) is taken ahead of it.
    @Test func suspendProducerHoldsTheUpstreamBack() async {
        let source = TestSource<Int, Never>()
        let total = 100
        for value in 0..<total { source.send(value) }
        source.finish()
        var slow = source.share(buffer: 4, whenFull: .suspendProducer).makeAsyncIterator()
        let lead = await source.largestLead(reading: &slow, sent: total)
        #expect(lead <= 5)
    }

    /// Invalid replay counts and buffer sizes stop the program with a clear message.
    @Test func invalidParametersAreRejected() async {
        await #expect(processExitsWith: .failure) {
            _ = TestSource<Int, Never>().share(replay: -1)
        }
        await #expect(processExitsWith: .failure) {
            _ = TestSource<Int, Never>().share(buffer: 0)
        }
    }

    /// The machine connects with the first subscriber, starts on the first `next`, disconnects
    /// with the last subscriber, and ignores a stale connection.
    @Test func stateMachineConnection() {
        var machine = ShareStateMachine<Int, TestFailure>(replay: 1)
        let first = machine.subscribe(capacity: 2, policy: .suspendProducer)
        #expect(first.connection == 1)
        #expect(!machine.isStarted)
        let started = machine.start()
        let startedAgain = machine.start()
        #expect(started && !startedAgain)
        machine.offer(1)
        machine.offer(2)
        #expect(!machine.canOffer)
        let second = machine.subscribe(capacity: 2, policy: .suspendProducer)
        #expect(second.connection == nil)
        #expect(machine.subscriberCount == 2)
        guard case .element(1) = machine.take(first.id) else { Issue.record("expected 1"); return }
        guard case .element(2) = machine.take(second.id) else { Issue.record("expected the replay"); return }
        let firstWasLast = machine.unsubscribe(first.id)
        let secondWasLast = machine.unsubscribe(second.id)
        #expect(!firstWasLast && secondWasLast)
        #expect(!machine.isCurrent(1))
        guard case .end(.success) = machine.take(first.id) else { Issue.record("expected the end"); return }
        #expect(machine.subscribe(capacity: 2, policy: .suspendProducer).connection == 2)
    }
}
