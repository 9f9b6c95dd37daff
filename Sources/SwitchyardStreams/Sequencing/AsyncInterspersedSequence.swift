extension AsyncSequence {
    /// Puts `separator` between every two elements (swift-async-algorithms'
    /// `interspersed(with:)`).
    ///
    /// - **Emits** the elements with `separator` between each two: `1, 2, 3` gives
    ///   `1, 0, 2, 0, 3`; never a separator first or last.
    /// - **Finishes** when this sequence finishes.
    /// - **Fails** with this sequence's failure, unchanged.
    /// - **Buffers** one element: the next element is read before its separator is emitted,
    ///   so a separator is only emitted when an element follows. Starts no task.
    ///
    /// ```swift
    /// for await word in words.interspersed(with: " ") { output.write(word) }
    /// ```
    @_disfavoredOverload  // swift-async-algorithms' operator of the same name wins when both are imported
    @inlinable public func interspersed(with separator: Element) -> AsyncInterspersedSequence<Self> {
        AsyncInterspersedSequence(base: self, separator: separator)
    }
}

/// A base sequence's elements with a separator between each two. Made by `interspersed(with:)`.
public struct AsyncInterspersedSequence<Base: AsyncSequence>: AsyncSequence {
    /// The base's element type.
    public typealias Element = Base.Element
    /// The base's failure type, unchanged.
    public typealias Failure = Base.Failure

    @usableFromInline let base: Base
    @usableFromInline let separator: Element

    @inlinable init(base: Base, separator: Element) {
        self.base = base
        self.separator = separator
    }

    /// Makes an iterator of the base.
    @inlinable public func makeAsyncIterator() -> Iterator {
        Iterator(base: base.makeAsyncIterator(), separator: separator)
    }

    /// Takes the elements and separators.
    public struct Iterator: AsyncIteratorProtocol, ConsumerPacedIterator {
        @usableFromInline var base: Base.AsyncIterator
        @usableFromInline let separator: Element
        /// The element read after its separator was emitted.
        @usableFromInline var pending: Element?
        @usableFromInline var emittedFirst = false

        @inlinable init(base: Base.AsyncIterator, separator: Element) {
            self.base = base
            self.separator = separator
        }

        /// The next element or separator; `nil` when the base ends.
        /// - Throws: The base's failure.
        @inlinable public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
            if let element = pending {
                pending = nil
                return element
            }
            guard let element = try await base.next(isolation: actor) else { return nil }
            guard emittedFirst else {
                emittedFirst = true
                return element
            }
            pending = element
            return separator
        }
    }
}

extension AsyncInterspersedSequence: Sendable where Base: Sendable, Element: Sendable {}

@available(*, unavailable)
extension AsyncInterspersedSequence.Iterator: Sendable {}
