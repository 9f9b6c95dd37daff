extension AsyncSequence where Self: Sendable, Element: Sendable {
    /// Maps each element to an inner sequence and emits the elements of the latest one only,
    /// cancelling the one it replaces (`switchToLatest`).
    ///
    /// - **Emits** the elements of the inner sequence made from the latest outer element.
    ///   When a new outer element arrives, the previous inner sequence is cancelled, and
    ///   nothing it produces afterwards is emitted, even before its cancellation took effect.
    /// - **Finishes** when this sequence and the current inner sequence have both finished.
    /// - **Fails** with the failure of this sequence or of the current inner sequence (a
    ///   replaced inner sequence's failure is ignored); everything else is cancelled.
    /// - **Buffers** up to 64 elements the consumer has not taken; the current inner sequence
    ///   waits while that buffer is full. This sequence is read as fast as it produces.
    ///
    /// Making the iterator subscribes to this sequence. The operator owns a task that reads it
    /// from the first `next` on and, per outer element, one task that iterates its inner
    /// sequence; all are cancelled when the consumer's task is
    /// cancelled or its iterator is released.
    ///
    /// ```swift
    /// for await results in queries.flatMapLatest { query in searchResults(for: query) } {
    ///     show(results)
    /// }
    /// ```
    @_disfavoredOverload  // swift-async-algorithms' operator of the same name wins when both are imported
    @inlinable public func flatMapLatest<Inner: AsyncSequence & Sendable>(
        _ transform: @escaping @Sendable (Element) -> Inner
    ) -> AsyncFlatMapLatestSequence<Self, Inner> where Inner.Element: Sendable, Inner.Failure == Failure {
        AsyncFlatMapLatestSequence(base: self, transform: transform)
    }

    /// Maps each element to an asynchronous call and emits the result of the latest call only,
    /// cancelling the call it replaces. The same as `flatMapLatest(_:)` with an inner sequence
    /// of one element.
    ///
    /// ```swift
    /// let rates = reloads.flatMapLatest { _ in await service.fetchRates() }
    /// ```
    @_disfavoredOverload  // swift-async-algorithms' operator of the same name wins when both are imported
    @inlinable public func flatMapLatest<Value: Sendable>(
        _ transform: @escaping @Sendable (Element) async throws(Failure) -> Value
    ) -> some AsyncSequence<Value, Failure> & Sendable {
        flatMapLatest { element in AsyncOperationSequence { () async throws(Failure) -> Value in try await transform(element) } }
    }
}

extension AsyncSequence where Self: Sendable, Element: Sendable, Failure == Never {
    /// Like `flatMapLatest(_:)`, for inner sequences that can fail when this sequence cannot
    /// (a `Broadcast` of reloads switching to a throwing request): the result fails with the
    /// current inner sequence's failure.
    ///
    /// ```swift
    /// let rates = reloads.flatMapLatest { _ in AsyncFuture { () async throws(APIError) in try await api.rates() } }
    /// ```
    @_disfavoredOverload
    @inlinable public func flatMapLatest<Inner: AsyncSequence & Sendable>(
        _ transform: @escaping @Sendable (Element) -> Inner
    ) -> AsyncFlatMapLatestSequence<AsyncMapFailureSequence<Self, Inner.Failure>, Inner> where Inner.Element: Sendable {
        setFailureType(to: Inner.Failure.self).flatMapLatest(transform)
    }

    /// Like `flatMapLatest(_:)` with an asynchronous call that can fail when this sequence
    /// cannot; the result fails with the current call's failure.
    @_disfavoredOverload
    @inlinable public func flatMapLatest<Value: Sendable, CallFailure: Error>(
        _ transform: @escaping @Sendable (Element) async throws(CallFailure) -> Value
    ) -> some AsyncSequence<Value, CallFailure> & Sendable {
        setFailureType(to: CallFailure.self).flatMapLatest(transform)
    }
}

/// The elements of the inner sequence made from a base sequence's latest element. Made by
/// `flatMapLatest(_:)`.
public struct AsyncFlatMapLatestSequence<Base: AsyncSequence & Sendable, Inner: AsyncSequence & Sendable>: AsyncSequence, Sendable, DrivenOperator
where Base.Element: Sendable, Inner.Element: Sendable, Inner.Failure == Base.Failure {
    /// Takes the elements of the latest inner sequence; `nil` once the base and the current
    /// inner sequence finished, or the task was cancelled; throws the failure of the base or
    /// of the current inner sequence.
    public typealias Iterator = AsyncOperatorIterator<Self, Element, Failure>
    /// The elements of the inner sequences.
    public typealias Element = Inner.Element
    /// The base's failure type, unchanged.
    public typealias Failure = Base.Failure
    @usableFromInline typealias Machine = FlatMapLatestStateMachine
    @usableFromInline typealias Driver = OperatorDriver<Machine, Element, Failure>

    @usableFromInline let base: Base
    @usableFromInline let transform: @Sendable (Base.Element) -> Inner

    @inlinable init(base: Base, transform: @escaping @Sendable (Base.Element) -> Inner) {
        self.base = base
        self.transform = transform
    }

    /// Makes an iterator, subscribing to the base at once (by making its iterator); the base
    /// is read from the first `next` on.
    @inlinable public func makeAsyncIterator() -> Iterator {
        let driver = Driver(machine: Machine())
        driver.readOuter(base, transform: transform) { inner in Self.switchTo(inner, driver: driver) }
        return Iterator(driver)
    }

    /// Cancels the inner sequence `inner` replaces and starts a task reading `inner`.
    /// - Returns: `false` once the operator has stopped.
    @inlinable static func switchTo(_ inner: Inner, driver: Driver) -> Bool {
        let (generation, replaced) = driver.update { machine, _ in machine.outerReceived() }
        if let replaced { driver.cancelTask(replaced) }
        guard let task = driver.spawn({ await consumeInner(inner, generation: generation, into: driver) }) else {
            return false
        }
        if !driver.update({ machine, _ in machine.innerStarted(task: task, generation: generation) }) {
            driver.cancelTask(task)
        }
        return true
    }

    @inlinable static func consumeInner(_ inner: Inner, generation: UInt64, into driver: Driver) async {
        var iterator = inner.makeAsyncIterator()
        let end = await drain(&iterator) { element in
            await driver.waitForRoomThenOffer { machine, output in
                guard machine.isCurrent(generation) else { return false }
                output.emit(element)
                return true
            }
        }
        driver.inputEnded(end) { machine, failed in
            failed ? machine.innerFailed(generation: generation) : machine.innerFinished(generation: generation)
        }
    }
}
