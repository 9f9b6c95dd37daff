extension AsyncSequence {
    /// Emits a running accumulation: each element is combined with the previous result.
    ///
    /// - **Emits** `nextPartialResult(previous, element)` for each element, where `previous`
    ///   starts as `initialResult` (which is not emitted itself).
    /// - **Finishes** when this sequence finishes.
    /// - **Fails** with this sequence's failure, unchanged.
    /// - **Buffers** only the current result. Starts no task: it runs in the consumer's `next`.
    ///
    /// ```swift
    /// for await total in purchases.scan(0) { $0 + $1.amount } { show(total) }
    /// ```
    @inlinable public func scan<Result>(
        _ initialResult: Result,
        _ nextPartialResult: @escaping @Sendable (Result, Element) -> Result
    ) -> AsyncScanSequence<Self, Result> {
        AsyncScanSequence(self, initialResult: initialResult, nextPartialResult: nextPartialResult)
    }
}

/// The running results of combining a base sequence's elements. Made by `scan(_:_:)`.
public struct AsyncScanSequence<Base: AsyncSequence, Result>: AsyncSequence {
    /// The running results.
    public typealias Element = Result
    /// The base's failure type, unchanged.
    public typealias Failure = Base.Failure

    @usableFromInline let base: Base
    @usableFromInline let initialResult: Result
    @usableFromInline let nextPartialResult: @Sendable (Result, Base.Element) -> Result

    @inlinable init(_ base: Base, initialResult: Result, nextPartialResult: @escaping @Sendable (Result, Base.Element) -> Result) {
        self.base = base
        self.initialResult = initialResult
        self.nextPartialResult = nextPartialResult
    }

    /// Makes an iterator that starts again from the initial result.
    @inlinable public func makeAsyncIterator() -> Iterator {
        Iterator(base: base.makeAsyncIterator(), result: initialResult, nextPartialResult: nextPartialResult)
    }

    /// Takes the running results.
    public struct Iterator: AsyncIteratorProtocol, ConsumerPacedIterator {
        @usableFromInline var base: Base.AsyncIterator
        @usableFromInline var result: Result
        @usableFromInline let nextPartialResult: @Sendable (Result, Base.Element) -> Result

        @inlinable init(
            base: Base.AsyncIterator,
            result: Result,
            nextPartialResult: @escaping @Sendable (Result, Base.Element) -> Result
        ) {
            self.base = base
            self.result = result
            self.nextPartialResult = nextPartialResult
        }

        /// The result after the base's next element; `nil` when the base ends.
        /// - Throws: The base's failure.
        @inlinable public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Result? {
            guard let element = try await base.next(isolation: actor) else { return nil }
            result = nextPartialResult(result, element)
            return result
        }
    }
}

extension AsyncScanSequence: Sendable where Base: Sendable, Result: Sendable {}
