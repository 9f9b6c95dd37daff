extension AsyncSequence {
    /// Emits `value` when this sequence finishes without having produced an element
    /// (Combine's `replaceEmpty(with:)`).
    ///
    /// - **Emits** this sequence's elements unchanged; if it finishes without any, `value`.
    /// - **Finishes** when this sequence finishes (after `value`, when emitted).
    /// - **Fails** with this sequence's failure, unchanged (no `value` is emitted then).
    /// - **Buffers** nothing. Starts no task: it runs in the consumer's `next`.
    ///
    /// ```swift
    /// for await places in search(query).replaceEmpty(with: []) { show(places) }
    /// ```
    @inlinable public func replaceEmpty(with value: Element) -> AsyncReplaceEmptySequence<Self> {
        AsyncReplaceEmptySequence(base: self, value: value)
    }
}

/// A base sequence, or one given element when it is empty. Made by `replaceEmpty(with:)`.
public struct AsyncReplaceEmptySequence<Base: AsyncSequence>: AsyncSequence {
    /// The base's element type.
    public typealias Element = Base.Element
    /// The base's failure type, unchanged.
    public typealias Failure = Base.Failure

    @usableFromInline let base: Base
    @usableFromInline let value: Element

    @inlinable init(base: Base, value: Element) {
        self.base = base
        self.value = value
    }

    /// Makes an iterator of the base.
    @inlinable public func makeAsyncIterator() -> Iterator {
        Iterator(base: base.makeAsyncIterator(), value: value)
    }

    /// Takes the base's elements, or the replacement.
    public struct Iterator: AsyncIteratorProtocol, ConsumerPacedIterator {
        @usableFromInline var base: Base.AsyncIterator
        /// The replacement while it may still be emitted: until the first element or the end.
        @usableFromInline var value: Element?
        @usableFromInline var isEnded = false

        @inlinable init(base: Base.AsyncIterator, value: Element) {
            self.base = base
            self.value = value
        }

        /// The base's next element, or the replacement at the end of an empty base.
        /// - Throws: The base's failure.
        @inlinable public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
            guard !isEnded else { return nil }
            do throws(Failure) {
                if let element = try await base.next(isolation: actor) {
                    value = nil
                    return element
                }
            } catch {
                isEnded = true
                throw error
            }
            isEnded = true
            defer { value = nil }
            return value
        }
    }
}

extension AsyncReplaceEmptySequence: Sendable where Base: Sendable, Element: Sendable {}

@available(*, unavailable)
extension AsyncReplaceEmptySequence.Iterator: Sendable {}
