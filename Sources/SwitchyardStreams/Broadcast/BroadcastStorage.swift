import Synchronization

/// The shared core of a ``Broadcast`` or ``CurrentValue``: its state under one lock, and the
/// suspension points of producers and consumers.
///
/// Subscriptions keep the storage alive, not the public object, so dropping the last reference to
/// a `Broadcast` can finish its subscribers.
@usableFromInline
final class _BroadcastStorage<Element: Sendable>: Sendable {
    @usableFromInline let state: Mutex<_BroadcastState<Element>>

    @inlinable
    init(current: Element?) {
        state = Mutex(_BroadcastState(current: current))
    }

    /// Runs `body` under the lock with the list of continuations it makes ready, and resumes
    /// them once the lock is let go, so a resumed task never contends for it.
    @inlinable
    @inline(__always)
    func withLockThenResume<Result: Sendable>(
        _ body: (inout _BroadcastState<Element>, inout _Wakeups) -> Result
    ) -> Result {
        let (result, wakeups) = state.withLock { state in
            var wakeups = _Wakeups()
            let result = body(&state, &wakeups)
            return (result, wakeups)
        }
        wakeups.resumeAll()
        return result
    }

    // MARK: Producing

    @inlinable
    func send(_ element: Element) -> Bool {
        withLockThenResume { state, wakeups in state.send(element, wakeups: &wakeups) }
    }

    @inlinable
    func send<S: Sequence>(contentsOf elements: S) -> Bool where S.Element == Element {
        withLockThenResume { state, wakeups in
            var buffered = true
            for element in elements where !state.send(element, wakeups: &wakeups) {
                buffered = false
            }
            return buffered
        }
    }

    @inlinable
    @inline(__always)
    nonisolated(nonsending) func deliver(_ element: Element) async {
        let wait = withLockThenResume { state, wakeups in state.deliver(element, wait: nil, wakeups: &wakeups) }
        if let wait {
            await waitForRoom(wait)
        }
    }

    @inlinable
    nonisolated(nonsending) func deliver(contentsOf elements: [Element]) async {
        let wait = withLockThenResume { state, wakeups in
            var wait: Int?
            for element in elements {
                wait = state.deliver(element, wait: wait, wakeups: &wakeups)
            }
            return wait
        }
        if let wait {
            await waitForRoom(wait)
        }
    }

    /// Suspends a producer until every element of its wait is buffered; cancellation drops the
    /// ones still pending.
    @inlinable
    @inline(never)
    nonisolated(nonsending) func waitForRoom(_ wait: Int) async {
        await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
                if state.withLock({ $0.parkProducer(wait: wait, continuation) }) {
                    continuation.resume()
                }
            }
        } onCancel: {
            withLockThenResume { state, wakeups in state.cancelWait(wait, wakeups: &wakeups) }
        }
    }

    @usableFromInline
    func finish() {
        withLockThenResume { state, wakeups in state.finish(wakeups: &wakeups) }
    }

    // MARK: Subscribing

    @usableFromInline
    func subscribe(bufferSize: Int, overflow: OverflowPolicy, replayingCurrent: Bool) -> Broadcast<Element>.Subscription {
        precondition(bufferSize >= 1, "subscribe(bufferSize:overflow:): bufferSize must be at least 1, got \(bufferSize)")
        let status = _SubscriberStatus()
        let id = state.withLock { state in
            state.subscribe(bufferSize: bufferSize, policy: overflow, status: status, replayingCurrent: replayingCurrent)
        }
        return Broadcast<Element>.Subscription(
            storage: self,
            id: id,
            status: status,
            settings: .init(bufferSize: bufferSize, overflow: overflow, replaysCurrent: replayingCurrent)
        )
    }

    @usableFromInline
    func unsubscribe(_ id: Int) {
        withLockThenResume { state, wakeups in state.unsubscribe(id, wakeups: &wakeups) }
    }

    @usableFromInline
    var subscriberCount: Int {
        state.withLock { $0.subscribers.count }
    }

    @usableFromInline
    func bufferedCount(of id: Int) -> Int {
        state.withLock { state in
            state.index(of: id).map { state.subscribers[$0].buffer.count } ?? 0
        }
    }

    // MARK: Consuming

    @inlinable
    func take(_ id: Int, hint: inout Int, into batch: inout _FIFOBuffer<Element>) -> _BroadcastState<Element>.TakeOutcome {
        withLockThenResume { state, wakeups in state.take(id, hint: &hint, into: &batch, wakeups: &wakeups) }
    }

    /// Suspends a consumer until its buffer has elements, the broadcast finishes, or the
    /// subscription ends; cancelling the consuming task ends the subscription.
    @inlinable
    @inline(never)
    func waitForElements(_ id: Int, hint: Int, isolation actor: isolated (any Actor)?) async {
        await withTaskCancellationHandler {
            await withUnsafeContinuation(isolation: actor) { (continuation: UnsafeContinuation<Void, Never>) in
                var hint = hint
                if state.withLock({ $0.parkConsumer(id, hint: &hint, continuation) }) {
                    continuation.resume()
                }
            }
        } onCancel: {
            unsubscribe(id)
        }
    }

    @usableFromInline
    func putBack(_ batch: _FIFOBuffer<Element>, for id: Int) {
        withLockThenResume { state, wakeups in state.putBack(batch, for: id, wakeups: &wakeups) }
    }
}
