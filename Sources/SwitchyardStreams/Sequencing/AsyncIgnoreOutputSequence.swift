extension AsyncSequence {
    /// Reads this sequence to its end and emits none of its elements, only how it ended
    /// (Combine's `ignoreOutput()`).
    ///
    /// - **Emits** nothing.
    /// - **Finishes** when this sequence finishes.
    /// - **Fails** with this sequence's failure, unchanged.
    /// - **Buffers** nothing. Starts no task: the consumer's first `next` reads the whole
    ///   sequence.
    ///
    /// ```swift
    /// for try await _ in uploads.ignoreOutput() {}   // waits until every upload is done
    /// ```
    @inlinable public func ignoreOutput() -> AsyncIgnoreOutputSequence<Self> {
        AsyncIgnoreOutputSequence(base: self)
    }
}

/// The end of a base sequence without its elements. Made by `ignoreOutput()`.
public struct AsyncIgnoreOutputSequence<Base: AsyncSequence>: AsyncSequence {
    /// No element is ever emitted.
    public typealias Element = Never
    /// The base's failure type, unchanged.
    public typealias Failure = Base.Failure

    @usableFromInline let base: Base

    @inlinable init(base: Base) {
        self.base = base
    }

    /// Makes an iterator of the base.
    @inlinable public func makeAsyncIterator() -> Iterator {
        Iterator(base: base.makeAsyncIterator())
    }

    /// Waits for the base's end.
    public struct Iterator: AsyncIteratorProtocol, ConsumerPacedIterator {
        @usableFromInline var base: Base.AsyncIterator

        @inlinable init(base: Base.AsyncIterator) {
            self.base = base
        }

        /// Reads the base to its end, then returns `nil`.
        /// - Throws: The base's failure.
        @inlinable public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Never? {
            while try await base.next(isolation: actor) != nil {}
            return nil
        }
    }
}

extension AsyncIgnoreOutputSequence: Sendable where Base: Sendable {}

@available(*, unavailable)
extension AsyncIgnoreOutputSequence.Iterator: Sendable {}
