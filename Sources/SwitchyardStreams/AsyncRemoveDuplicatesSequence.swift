extension AsyncSequence where Element: Equatable & Sendable {
    /// Drops each element that equals the one emitted just before it.
    ///
    /// - **Emits** the first element, then each element that differs from the last one emitted.
    /// - **Finishes** when this sequence finishes.
    /// - **Fails** with this sequence's failure, unchanged.
    /// - **Buffers** only the last emitted element, for comparison. Starts no task: it runs in
    ///   the consumer's `next`.
    ///
    /// ```swift
    /// for await tilt in tilts.removeDuplicates() { show(tilt) }   // .flat, .flat, .up → .flat, .up
    /// ```
    @_disfavoredOverload  // swift-async-algorithms' operator of the same name wins when both are imported
    @inlinable public func removeDuplicates() -> AsyncRemoveDuplicatesSequence<Self> {
        AsyncRemoveDuplicatesSequence(self) { $0 == $1 }
    }
}

extension AsyncSequence {
    /// Drops each element that `areDuplicates` considers a repeat of the one emitted before it.
    ///
    /// - **Emits** the first element, then each element for which
    ///   `areDuplicates(lastEmitted, element)` returns `false`.
    /// - **Finishes** when this sequence finishes.
    /// - **Fails** with this sequence's failure, unchanged.
    /// - **Buffers** only the last emitted element. Starts no task.
    ///
    /// ```swift
    /// let moves = positions.removeDuplicates { abs($0.x - $1.x) < 0.5 }
    /// ```
    @_disfavoredOverload  // swift-async-algorithms' operator of the same name wins when both are imported
    @inlinable public func removeDuplicates(
        by areDuplicates: @escaping @Sendable (Element, Element) -> Bool
    ) -> AsyncRemoveDuplicatesSequence<Self> {
        AsyncRemoveDuplicatesSequence(self, areDuplicates: areDuplicates)
    }

    /// Drops each element whose value at `keyPath` equals that of the element emitted before it.
    ///
    /// - **Emits** the first element, then each element whose `keyPath` value changed.
    /// - **Finishes** when this sequence finishes.
    /// - **Fails** with this sequence's failure, unchanged.
    /// - **Buffers** only the last emitted element. Starts no task.
    ///
    /// ```swift
    /// let cityChanges = locations.removeDuplicates(by: \.city)
    /// ```
    @_disfavoredOverload  // swift-async-algorithms' operator of the same name wins when both are imported
    @inlinable public func removeDuplicates<Value: Equatable & Sendable>(
        by keyPath: KeyPath<Element, Value> & Sendable
    ) -> AsyncRemoveDuplicatesSequence<Self> {
        AsyncRemoveDuplicatesSequence(self) { $0[keyPath: keyPath] == $1[keyPath: keyPath] }
    }
}

/// The elements of a base sequence without consecutive repeats. Made by `removeDuplicates()`,
/// `removeDuplicates(by:)` with a predicate, or `removeDuplicates(by:)` with a key path.
public struct AsyncRemoveDuplicatesSequence<Base: AsyncSequence>: AsyncSequence {
    /// The base's element type.
    public typealias Element = Base.Element
    /// The base's failure type, unchanged.
    public typealias Failure = Base.Failure

    @usableFromInline let base: Base
    @usableFromInline let areDuplicates: @Sendable (Element, Element) -> Bool

    @inlinable init(_ base: Base, areDuplicates: @escaping @Sendable (Element, Element) -> Bool) {
        self.base = base
        self.areDuplicates = areDuplicates
    }

    /// Makes an iterator over the base's elements without repeats.
    @inlinable public func makeAsyncIterator() -> Iterator {
        Iterator(base: base.makeAsyncIterator(), areDuplicates: areDuplicates)
    }

    /// Takes the base's elements, skipping repeats.
    public struct Iterator: AsyncIteratorProtocol, ConsumerPacedIterator {
        @usableFromInline var base: Base.AsyncIterator
        @usableFromInline let areDuplicates: @Sendable (Element, Element) -> Bool
        @usableFromInline var last: Element?

        @inlinable init(base: Base.AsyncIterator, areDuplicates: @escaping @Sendable (Element, Element) -> Bool) {
            self.base = base
            self.areDuplicates = areDuplicates
        }

        /// The next element that is not a repeat; `nil` when the base ends.
        /// - Throws: The base's failure.
        @inlinable public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
            while let element = try await base.next(isolation: actor) {
                if let last, areDuplicates(last, element) { continue }
                last = element
                return element
            }
            return nil
        }
    }
}

extension AsyncRemoveDuplicatesSequence: Sendable where Base: Sendable {}
