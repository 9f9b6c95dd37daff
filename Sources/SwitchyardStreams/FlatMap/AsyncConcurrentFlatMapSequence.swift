extension AsyncSequence where Self: Sendable, Element: Sendable, Failure == Never {
    /// Like `flatMap(maxConcurrent:_:)`, for inner sequences that can fail when this sequence
    /// cannot: the result fails with the first inner failure.
    ///
    /// ```swift
    /// let pages = pageURLs.flatMap(maxConcurrent: 4) { url in download(url) }  // download throws
    /// ```
    @_disfavoredOverload
    @inlinable public func flatMap<Inner: AsyncSequence & Sendable>(
        maxConcurrent: Int = .max,
        _ transform: @escaping @Sendable (Element) -> Inner
    ) -> AsyncConcurrentFlatMapSequence<AsyncMapFailureSequence<Self, Inner.Failure>, Inner> where Inner.Element: Sendable {
        setFailureType(to: Inner.Failure.self).flatMap(maxConcurrent: maxConcurrent, transform)
    }
}

extension AsyncSequence where Self: Sendable, Element: Sendable {
    /// Maps each element to an inner sequence and emits the elements of up to
    /// `maxConcurrent` inner sequences at a time (all of them by default, as Combine's
    /// `flatMap`), interleaved as they arrive.
    ///
    /// - **Emits** each element of every inner sequence as soon as it arrives; the elements of
    ///   one inner sequence keep their order. With `maxConcurrent: 1` the inner sequences run
    ///   one after another (`concatMap`).
    /// - **Finishes** when this sequence and every inner sequence have finished.
    /// - **Fails** with the first failure of this sequence or of any inner sequence;
    ///   everything else is cancelled.
    /// - **Buffers** up to 64 elements the consumer has not taken (inner sequences wait while
    ///   it is full). This sequence is read only while fewer than `maxConcurrent` inner
    ///   sequences run, so it is held back rather than buffered.
    ///
    /// Making the iterator subscribes to this sequence. The operator owns a task that reads it
    /// from the first `next` on, and one task per running inner sequence; all are cancelled when the consumer's task is cancelled or its iterator is
    /// released.
    ///
    /// ```swift
    /// let pages = pageURLs.flatMap(maxConcurrent: 4) { url in download(url) }
    /// ```
    ///
    /// - Parameter maxConcurrent: How many inner sequences may run at once; defaults to
    ///   `Int.max` (unlimited).
    /// - Precondition: `maxConcurrent` is at least 1.
    @inlinable public func flatMap<Inner: AsyncSequence & Sendable>(
        maxConcurrent: Int = .max,
        _ transform: @escaping @Sendable (Element) -> Inner
    ) -> AsyncConcurrentFlatMapSequence<Self, Inner> where Inner.Element: Sendable, Inner.Failure == Failure {
        precondition(maxConcurrent >= 1, "flatMap(maxConcurrent:) needs at least 1, got \(maxConcurrent)")
        return AsyncConcurrentFlatMapSequence(base: self, maxConcurrent: maxConcurrent, transform: transform)
    }

    /// Maps each element to an asynchronous call, running up to `maxConcurrent` calls at a
    /// time, and emits their results as they complete. The same as `flatMap(maxConcurrent:_:)`
    /// with inner sequences of one element.
    ///
    /// ```swift
    /// let welcomes = loads.flatMap(maxConcurrent: 1) { _ in await api.welcomeText() }
    /// ```
    ///
    /// - Precondition: `maxConcurrent` is at least 1.
    @inlinable public func flatMap<Value: Sendable>(
        maxConcurrent: Int = .max,
        _ transform: @escaping @Sendable (Element) async throws(Failure) -> Value
    ) -> some AsyncSequence<Value, Failure> & Sendable {
        flatMap(maxConcurrent: maxConcurrent) { element in
            AsyncOperationSequence { () async throws(Failure) -> Value in try await transform(element) }
        }
    }
}

/// The elements of the inner sequences made from a base sequence's elements, a bounded number
/// at a time. Made by `flatMap(maxConcurrent:_:)`. (Named apart from the standard library's
/// sequential `AsyncFlatMapSequence`.)
public struct AsyncConcurrentFlatMapSequence<Base: AsyncSequence & Sendable, Inner: AsyncSequence & Sendable>: AsyncSequence, Sendable, DrivenOperator
where Base.Element: Sendable, Inner.Element: Sendable, Inner.Failure == Base.Failure {
    /// Takes the elements of the inner sequences; `nil` once everything finished or the task
    /// was cancelled, and throws the first failure of the base or of an inner sequence.
    public typealias Iterator = AsyncOperatorIterator<Self, Element, Failure>
    /// The elements of the inner sequences.
    public typealias Element = Inner.Element
    /// The base's failure type, unchanged.
    public typealias Failure = Base.Failure
    @usableFromInline typealias Machine = FlatMapStateMachine
    @usableFromInline typealias Driver = OperatorDriver<Machine, Element, Failure>

    @usableFromInline let base: Base
    @usableFromInline let maxConcurrent: Int
    @usableFromInline let transform: @Sendable (Base.Element) -> Inner

    @inlinable init(base: Base, maxConcurrent: Int, transform: @escaping @Sendable (Base.Element) -> Inner) {
        self.base = base
        self.maxConcurrent = maxConcurrent
        self.transform = transform
    }

    /// Makes an iterator, subscribing to the base at once (by making its iterator); the base
    /// is read from the first `next` on.
    @inlinable public func makeAsyncIterator() -> Iterator {
        let driver = Driver(machine: Machine(maxConcurrent: maxConcurrent))
        driver.readOuter(base, transform: transform) { inner in
            driver.update { machine, _ in machine.innerStarted() }
            guard driver.spawn({ await Self.consumeInner(inner, into: driver) }) != nil else { return false }
            return await driver.wait { $0.mayStartInner }
        }
        return Iterator(driver)
    }

    @inlinable static func consumeInner(_ inner: Inner, into driver: Driver) async {
        var iterator = inner.makeAsyncIterator()
        let end = await drain(&iterator) { element in
            await driver.updateThenWaitForRoom { _, output in output.emit(element) }
        }
        driver.inputEnded(end) { machine, failed in failed ? machine.innerFailed() : machine.innerFinished() }
    }
}
