import Synchronization

/// The result of one asynchronous call as a sequence of one element (Combine's `Future`).
///
/// The call starts when the future is created, runs once in its own task, and every iterator
/// (of any copy, before or after it completes) gets its result: the value then the finish,
/// or the failure. Waiting for it ends early, returning `nil`, when the waiting task is
/// cancelled; ``cancel()`` cancels the call itself. Dropping every copy does not cancel the
/// call (as with a `Task`).
///
/// ```swift
/// let rates = AsyncFuture { () async throws(APIError) -> Rates in try await api.rates() }
/// for try await value in rates { show(value) }
/// ```
public struct AsyncFuture<Element: Sendable, Failure: Error>: AsyncSequence, Sendable {
    @usableFromInline let storage: AsyncFutureStorage<Element, Failure>

    /// Starts `operation` at once in a new task.
    public init(_ operation: @escaping @Sendable () async throws(Failure) -> Element) {
        let storage = AsyncFutureStorage<Element, Failure>()
        self.storage = storage
        let task = Task {
            let result: Result<Element, Failure>
            do throws(Failure) {
                result = .success(try await operation())
            } catch {
                result = .failure(error)
            }
            storage.complete(result)
        }
        storage.setTask(task)
    }

    /// Cancels the call (it sees `Task.isCancelled`); its result is still delivered.
    public func cancel() {
        storage.cancel()
    }

    /// Makes an iterator that waits for the result.
    @inlinable public func makeAsyncIterator() -> Iterator {
        Iterator(storage: storage)
    }

    /// Returns the value once, or throws the failure once, then `nil`.
    public struct Iterator: AsyncIteratorProtocol, ConsumerPacedIterator {
        @usableFromInline let storage: AsyncFutureStorage<Element, Failure>
        @usableFromInline var done = false

        @inlinable init(storage: AsyncFutureStorage<Element, Failure>) {
            self.storage = storage
        }

        /// The call's value, waiting for it; `nil` afterwards or when the task is cancelled.
        /// - Throws: The call's failure.
        @inlinable public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
            guard !done else { return nil }
            done = true
            guard let result = await storage.result(isolation: actor) else { return nil }
            return try result.get()
        }
    }
}

@available(*, unavailable)
extension AsyncFuture.Iterator: Sendable {}

/// The shared state of an ``AsyncFuture``: its task, and its result or the iterators waiting.
@usableFromInline final class AsyncFutureStorage<Element: Sendable, Failure: Error>: Sendable {
    @usableFromInline typealias Waiter = UnsafeContinuation<Result<Element, Failure>?, Never>

    @usableFromInline struct State {
        @usableFromInline var result: Result<Element, Failure>?
        @usableFromInline var waiters: [UInt64: Waiter] = [:]
        @usableFromInline var nextWaiter: UInt64 = 0
        @usableFromInline var task: Task<Void, Never>?
        @usableFromInline var cancelled = false
    }

    @usableFromInline let state = Mutex(State())

    @usableFromInline init() {}

    @usableFromInline func setTask(_ task: Task<Void, Never>) {
        let cancelNow = state.withLock { state in
            if state.result == nil { state.task = task }
            return state.cancelled
        }
        if cancelNow { task.cancel() }
    }

    @usableFromInline func cancel() {
        let task = state.withLock { state in
            state.cancelled = true
            return state.task
        }
        task?.cancel()
    }

    @usableFromInline func complete(_ result: Result<Element, Failure>) {
        let waiters = state.withLock { state in
            state.result = result
            state.task = nil
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: result) }
    }

    /// The result, waiting for it; `nil` when the waiting task is cancelled first.
    @usableFromInline func result(isolation actor: isolated (any Actor)?) async -> Result<Element, Failure>? {
        if let result = state.withLock({ $0.result }) { return result }
        let id = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        return await withTaskCancellationHandler {
            await withUnsafeContinuation(isolation: actor) { (waiter: Waiter) in
                let ready = state.withLock { state -> Result<Element, Failure>?? in
                    if let result = state.result { return .some(result) }
                    if Task.isCancelled { return .some(nil) }
                    state.waiters[id] = waiter
                    return .none
                }
                if let ready { waiter.resume(returning: ready) }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume(returning: nil)
        }
    }
}
