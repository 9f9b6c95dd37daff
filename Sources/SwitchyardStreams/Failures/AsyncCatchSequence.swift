extension AsyncSequence {
    /// Replaces a failure with the elements of another sequence (Combine's `catch`).
    ///
    /// - **Emits** this sequence's elements; after a failure, the elements of
    ///   `handler(failure)`.
    /// - **Finishes** when this sequence finishes, or when the replacement finishes.
    /// - **Fails** only with the replacement's failure (its own type, `Never` for a
    ///   replacement that cannot fail).
    /// - **Buffers** nothing and starts no task: the replacement is made and iterated on the
    ///   consumer's task.
    ///
    /// ```swift
    /// let rates = fetchedRates.catch { _ in AsyncJust(cachedRates) }
    /// ```
    @inlinable public func `catch`<Replacement: AsyncSequence>(
        _ handler: @escaping @Sendable (Failure) -> Replacement
    ) -> AsyncCatchSequence<Self, Replacement> where Replacement.Element == Element {
        AsyncCatchSequence(base: self, handler: handler)
    }

    /// Replaces a failure with one last element, then finishes (Combine's
    /// `replaceError(with:)`). The result cannot fail; buffers nothing and starts no task.
    ///
    /// ```swift
    /// let names = fetchedNames.replaceError(with: [])
    /// ```
    @inlinable public func replaceError(
        with element: Element
    ) -> AsyncCatchSequence<Self, AsyncJust<Element>> where Element: Sendable {
        AsyncCatchSequence(base: self) { _ in AsyncJust(element) }
    }
}

/// A base sequence whose failure is replaced by another sequence. Made by `catch(_:)` and
/// `replaceError(with:)`.
public struct AsyncCatchSequence<Base: AsyncSequence, Replacement: AsyncSequence>: AsyncSequence
where Replacement.Element == Base.Element {
    /// The base's element type.
    public typealias Element = Base.Element
    /// The replacement's failure type.
    public typealias Failure = Replacement.Failure

    @usableFromInline let base: Base
    @usableFromInline let handler: @Sendable (Base.Failure) -> Replacement

    @inlinable init(base: Base, handler: @escaping @Sendable (Base.Failure) -> Replacement) {
        self.base = base
        self.handler = handler
    }

    /// Makes an iterator of the base; the replacement's iterator is made after a failure.
    @inlinable public func makeAsyncIterator() -> Iterator {
        Iterator(base: base.makeAsyncIterator(), handler: handler)
    }

    /// Iterates the base, then the replacement after a failure.
    public struct Iterator: AsyncIteratorProtocol, ConsumerPacedIterator {
        @usableFromInline var base: Base.AsyncIterator?
        @usableFromInline var replacement: Replacement.AsyncIterator?
        @usableFromInline let handler: @Sendable (Base.Failure) -> Replacement

        @inlinable init(base: Base.AsyncIterator, handler: @escaping @Sendable (Base.Failure) -> Replacement) {
            self.base = base
            self.handler = handler
        }

        /// The next element of the base, or of the replacement after the base failed.
        /// - Throws: The replacement's failure.
        @inlinable public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
            if var iterator = base {
                do {
                    let element = try await iterator.next(isolation: actor)
                    base = element == nil ? nil : iterator
                    return element
                } catch {
                    base = nil
                    replacement = handler(error).makeAsyncIterator()
                }
            }
            guard var iterator = replacement else { return nil }
            defer { replacement = iterator }
            return try await iterator.next(isolation: actor)
        }
    }
}

extension AsyncCatchSequence: Sendable where Base: Sendable {}

@available(*, unavailable)
extension AsyncCatchSequence.Iterator: Sendable {}
