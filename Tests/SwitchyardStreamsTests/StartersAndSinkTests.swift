import Synchronization
import SwitchyardStreams
import SwitchyardTesting
import Testing

/// Issue 12 point 8: Combine's starters as sequences, and a `sink` that is subscribed before
/// it returns.
@Suite(.timeLimit(.minutes(1)))
struct StartersAndSinkTests {
    /// `AsyncJust` emits its element once per iterator, then finishes.
    @Test func justEmitsOnce() async {
        let just = AsyncJust(7)
        var first: [Int] = []
        for await value in just { first.append(value) }
        var second: [Int] = []
        for await value in just { second.append(value) }
        #expect(first == [7] && second == [7])
    }

    /// `AsyncEmpty` finishes at once; `AsyncFail` throws once, then ends.
    @Test func emptyAndFail() async throws {
        var count = 0
        for await _ in AsyncEmpty<Int, Never>() { count += 1 }
        #expect(count == 0)
        var iterator = AsyncFail(of: Int.self, TestFailure.boom).makeAsyncIterator()
        await #expect(throws: TestFailure.boom) { try await iterator.next() }
        #expect(try await iterator.next() == nil)
    }

    /// `AsyncDeferred` makes its sequence per iterator, when the iterator is made.
    @Test func deferredMakesPerIterator() async {
        let made = Atomic<Int>(0)
        let deferred = AsyncDeferred { () -> AsyncJust<Int> in
            AsyncJust(made.add(1, ordering: .relaxed).newValue)
        }
        #expect(made.load(ordering: .relaxed) == 0)
        var first = deferred.makeAsyncIterator()
        var second = deferred.makeAsyncIterator()
        #expect(await first.next() == 1)
        #expect(await second.next() == 2)
    }

    /// `AsyncFuture` runs its call once; every iterator gets the value, or the failure.
    @Test func futureRunsOnceForEveryIterator() async throws {
        let calls = Atomic<Int>(0)
        let gate = TestSource<Int, Never>()
        let future = AsyncFuture { () async -> Int in
            calls.add(1, ordering: .relaxed)
            var iterator = gate.makeAsyncIterator()
            return await iterator.next() ?? -1
        }
        let first = TestRecorder(future)
        let second = TestRecorder(future)
        gate.send(42)
        #expect(await first.waitForCompletion() == .finished)
        #expect(await second.waitForCompletion() == .finished)
        #expect(first.elements == [42] && second.elements == [42])
        var late = future.makeAsyncIterator()
        #expect(await late.next() == 42)
        #expect(await late.next() == nil)
        #expect(calls.load(ordering: .relaxed) == 1)

        let failing = AsyncFuture { () async throws(TestFailure) -> Int in throw .boom }
        var failed = failing.makeAsyncIterator()
        await #expect(throws: TestFailure.boom) { try await failed.next() }
    }

    /// A cancelled waiter of an `AsyncFuture` returns `nil` at once.
    @Test func futureWaiterEndsOnCancellation() async {
        let gate = TestSource<Int, Never>()
        let future = AsyncFuture { () async -> Int in
            var iterator = gate.makeAsyncIterator()
            return await iterator.next() ?? -1
        }
        let recorder = TestRecorder(future)
        recorder.cancel()
        #expect(await recorder.waitForCompletion() == .finished)
        #expect(recorder.elements.isEmpty)
        gate.send(1)
    }

    /// `sink` is subscribed when it returns: values sent right after are received, then the
    /// completion.
    @Test func sinkSubscribesBeforeReturning() async {
        let broadcast = Broadcast<Int>()
        let values = Mutex<[Int]>([])
        let completions = Mutex<[String]>([])
        let handle = broadcast.subscribe().sink(
            receiveCompletion: { completion in
                completions.withLock { $0.append("\(completion)") }
            },
            receiveValue: { value in values.withLock { $0.append(value) } }
        )
        broadcast.send(1)
        broadcast.send(2)
        broadcast.finish()
        await handle.finished
        #expect(values.withLock { $0 } == [1, 2])
        #expect(completions.withLock { $0 } == ["finished"])
    }

    /// Cancelling the handle ends the sink with `.finished`; a failure reaches the completion.
    @Test func sinkCancelAndFailure() async {
        let source = TestSource<Int, TestFailure>()
        let ended = Mutex<[String]>([])
        let handle = source.sink(
            receiveCompletion: { completion in ended.withLock { $0.append("\(completion)") } },
            receiveValue: { _ in }
        )
        handle.cancel()
        await handle.finished
        #expect(handle.isCancelled)
        #expect(ended.withLock { $0 } == ["finished"])

        let failing = TestSource<Int, TestFailure>()
        let failed = failing.sink(
            receiveCompletion: { completion in ended.withLock { $0.append("\(completion)") } },
            receiveValue: { _ in }
        )
        failing.fail(.boom)
        await failed.finished
        #expect(ended.withLock { $0.last }?.hasPrefix("failure(") == true)
    }
}
