extension AsyncSequence {
    /// Gathers elements into arrays of `count` (Combine's `collect(_:)`,
    /// swift-async-algorithms' `chunks(ofCount:)`).
    ///
    /// - **Emits** an array of `count` elements as soon as that many have arrived, in order;
    ///   when this sequence ends, the shorter array of what is left, if anything is.
    /// - **Finishes** when this sequence finishes, after that last array.
    /// - **Fails** with this sequence's failure, after the last array: what was gathered before
    ///   the failure is emitted, not dropped (Combine drops it).
    /// - **Buffers** at most `count` elements. Starts no task: it reads in the consumer's `next`,
    ///   only the elements one array needs.
    ///
    /// ```swift
    /// for await batch in readings.collect(count: 100) { store(batch) }
    /// ```
    /// - Precondition: `count` is at least 1.
    @inlinable public func collect(count: Int) -> AsyncCollectCountSequence<Self> {
        precondition(count >= 1, "collect(count:) needs a count of at least 1, got \(count)")
        return AsyncCollectCountSequence(base: self, count: count)
    }
}

/// A base sequence's elements in arrays of a fixed count. Made by `collect(count:)`.
public struct AsyncCollectCountSequence<Base: AsyncSequence>: AsyncSequence {
    /// Arrays of the base's elements.
    public typealias Element = [Base.Element]
    /// The base's failure type, unchanged.
    public typealias Failure = Base.Failure

    @usableFromInline let base: Base
    @usableFromInline let count: Int

    @inlinable init(base: Base, count: Int) {
        self.base = base
        self.count = count
    }

    /// Makes an iterator of the base.
    @inlinable public func makeAsyncIterator() -> Iterator {
        Iterator(base: base.makeAsyncIterator(), count: count)
    }

    /// Takes the arrays.
    public struct Iterator: AsyncIteratorProtocol, ConsumerPacedIterator {
        @usableFromInline var base: Base.AsyncIterator
        @usableFromInline let count: Int
        /// How the base ended, delivered once the last array was taken.
        @usableFromInline var ending: BaseEnding<Failure>

        @inlinable init(base: Base.AsyncIterator, count: Int) {
            self.base = base
            self.count = count
            ending = BaseEnding()
        }

        /// The next array; `nil` after the last.
        /// - Throws: The base's failure, after the elements gathered before it.
        @inlinable public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> [Base.Element]? {
            try ending.deliver()
            guard !ending.isEnded else { return nil }
            var chunk: [Base.Element] = []
            chunk.reserveCapacity(Swift.min(count, 1_024))
            do throws(Failure) {
                while chunk.count < count {
                    guard let element = try await base.next(isolation: actor) else {
                        ending.record(.success(()))
                        break
                    }
                    chunk.append(element)
                }
            } catch {
                ending.record(.failure(error))
            }
            guard chunk.isEmpty else { return chunk }
            try ending.deliver()
            return nil
        }
    }
}

extension AsyncCollectCountSequence: Sendable where Base: Sendable {}

@available(*, unavailable)
extension AsyncCollectCountSequence.Iterator: Sendable {}
