extension AsyncSequence {
    /// Emits `elements` first, then this sequence's elements (Combine's `prepend(_:)`).
    ///
    /// Finishes and fails as this sequence does; buffers nothing and starts no task.
    ///
    /// ```swift
    /// for await query in edits.prepend("") { search(query) }   // an empty search at once
    /// ```
    @inlinable public func prepend(_ elements: Element...) -> AsyncConcatSequence<AsyncElements<Element, Failure>, Self> {
        AsyncConcatSequence(first: AsyncElements(elements), second: self)
    }

    /// Emits the elements of `other` first, then this sequence's (Combine's `prepend(_:)`
    /// with a publisher): this sequence's iterator is made once `other` has finished.
    ///
    /// Fails with `other`'s failure (this sequence is then never iterated) or this sequence's;
    /// buffers nothing and starts no task.
    @inlinable public func prepend<Other: AsyncSequence>(_ other: Other) -> AsyncConcatSequence<Other, Self>
    where Other.Element == Element, Other.Failure == Failure {
        AsyncConcatSequence(first: other, second: self)
    }

    /// Emits this sequence's elements, then `elements` once it has finished (Combine's
    /// `append(_:)`); a failure of this sequence ends it without them.
    ///
    /// ```swift
    /// for await line in lines.append("-- end --") { print(line) }
    /// ```
    @inlinable public func append(_ elements: Element...) -> AsyncConcatSequence<Self, AsyncElements<Element, Failure>> {
        AsyncConcatSequence(first: self, second: AsyncElements(elements))
    }

    /// Emits this sequence's elements, then those of `other` (Combine's `append(_:)` with a
    /// publisher): `other`'s iterator is made once this sequence has finished.
    ///
    /// Fails with this sequence's failure (`other` is then never iterated) or `other`'s;
    /// buffers nothing and starts no task.
    @inlinable public func append<Other: AsyncSequence>(_ other: Other) -> AsyncConcatSequence<Self, Other>
    where Other.Element == Element, Other.Failure == Failure {
        AsyncConcatSequence(first: self, second: other)
    }
}

/// The elements of one sequence, then those of another. Made by `prepend` and `append`.
public struct AsyncConcatSequence<First: AsyncSequence, Second: AsyncSequence>: AsyncSequence
where First.Element == Second.Element, First.Failure == Second.Failure {
    /// The sequences' element type.
    public typealias Element = First.Element
    /// The sequences' failure type.
    public typealias Failure = First.Failure

    @usableFromInline let first: First
    @usableFromInline let second: Second

    @inlinable init(first: First, second: Second) {
        self.first = first
        self.second = second
    }

    /// Makes an iterator of the first sequence; the second's is made when the first finishes.
    @inlinable public func makeAsyncIterator() -> Iterator {
        Iterator(first: first.makeAsyncIterator(), second: second)
    }

    /// Takes the first sequence's elements, then the second's.
    public struct Iterator: AsyncIteratorProtocol, ConsumerPacedIterator {
        @usableFromInline var first: First.AsyncIterator?
        @usableFromInline var second: Second?
        @usableFromInline var secondIterator: Second.AsyncIterator?

        @inlinable init(first: First.AsyncIterator, second: Second) {
            self.first = first
            self.second = second
        }

        /// The next element; `nil` after the second sequence has ended.
        /// - Throws: The failure of either sequence.
        @inlinable public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
            if first != nil {
                do throws(Failure) {
                    if let element = try await first?.next(isolation: actor) { return element }
                } catch {
                    first = nil
                    second = nil
                    throw error
                }
                first = nil
                secondIterator = second?.makeAsyncIterator()
                second = nil
            }
            do throws(Failure) {
                return try await secondIterator?.next(isolation: actor)
            } catch {
                secondIterator = nil
                throw error
            }
        }
    }
}

extension AsyncConcatSequence: Sendable where First: Sendable, Second: Sendable {}

@available(*, unavailable)
extension AsyncConcatSequence.Iterator: Sendable {}
