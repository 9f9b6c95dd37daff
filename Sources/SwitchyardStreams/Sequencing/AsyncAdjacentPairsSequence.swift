extension AsyncSequence {
    /// Pairs each element with the one before it (swift-async-algorithms' `adjacentPairs()`).
    ///
    /// - **Emits** `(previous, element)` for every element after the first: `1, 2, 3` gives
    ///   `(1, 2), (2, 3)`.
    /// - **Finishes** when this sequence finishes (a sequence of fewer than two elements emits
    ///   nothing).
    /// - **Fails** with this sequence's failure, unchanged.
    /// - **Buffers** the previous element only. Starts no task: it runs in the consumer's `next`.
    ///
    /// ```swift
    /// for await (before, after) in positions.adjacentPairs() { walked += distance(before, after) }
    /// ```
    @_disfavoredOverload  // swift-async-algorithms' operator of the same name wins when both are imported
    @inlinable public func adjacentPairs() -> AsyncAdjacentPairsSequence<Self> {
        AsyncAdjacentPairsSequence(base: self)
    }
}

/// Each element of a base sequence with the one before it. Made by `adjacentPairs()`.
public struct AsyncAdjacentPairsSequence<Base: AsyncSequence>: AsyncSequence {
    /// An element and the one after it.
    public typealias Element = (Base.Element, Base.Element)
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

    /// Takes the pairs.
    public struct Iterator: AsyncIteratorProtocol, ConsumerPacedIterator {
        @usableFromInline var base: Base.AsyncIterator
        @usableFromInline var previous: Base.Element?

        @inlinable init(base: Base.AsyncIterator) {
            self.base = base
        }

        /// The next pair; `nil` when the base ends.
        /// - Throws: The base's failure.
        @inlinable public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
            if previous == nil {
                guard let first = try await base.next(isolation: actor) else { return nil }
                previous = first
            }
            guard let element = try await base.next(isolation: actor), let before = previous else { return nil }
            previous = element
            return (before, element)
        }
    }
}

extension AsyncAdjacentPairsSequence: Sendable where Base: Sendable {}

@available(*, unavailable)
extension AsyncAdjacentPairsSequence.Iterator: Sendable {}
