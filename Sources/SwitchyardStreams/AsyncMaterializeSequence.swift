extension AsyncSequence {
    /// Turns each element, the failure and the finish into ``StreamEvent`` values, so the
    /// result never fails.
    ///
    /// - **Emits** `.element(e)` for each element, then `.failure(f)` if this sequence fails or
    ///   `.finished` when it finishes.
    /// - **Finishes** right after emitting `.failure` or `.finished`.
    /// - **Fails** never (`Failure == Never`): the failure arrives as a value.
    /// - **Buffers** nothing. Starts no task.
    ///
    /// ```swift
    /// for await event in fetches.materialize() {
    ///     if case .failure(let error) = event { show(error) }
    /// }
    /// ```
    @inlinable public func materialize() -> AsyncMaterializeSequence<Self> {
        AsyncMaterializeSequence(self)
    }
}

/// A base sequence's events as values. Made by `materialize()`.
public struct AsyncMaterializeSequence<Base: AsyncSequence>: AsyncSequence {
    /// The base's elements, failure and finish as values.
    public typealias Element = StreamEvent<Base.Element, Base.Failure>
    /// Never fails: failures arrive as values.
    public typealias Failure = Never

    @usableFromInline let base: Base

    @inlinable init(_ base: Base) {
        self.base = base
    }

    /// Makes an iterator over the base's events.
    @inlinable public func makeAsyncIterator() -> Iterator {
        Iterator(base: base.makeAsyncIterator())
    }

    /// Takes the base's events.
    public struct Iterator: AsyncIteratorProtocol, ConsumerPacedIterator {
        @usableFromInline var base: Base.AsyncIterator
        @usableFromInline var ended = false

        @inlinable init(base: Base.AsyncIterator) {
            self.base = base
        }

        /// The base's next event; `nil` after `.failure` or `.finished` was returned.
        @inlinable public mutating func next(isolation actor: isolated (any Actor)?) async -> Element? {
            guard !ended else { return nil }
            do throws(Base.Failure) {
                if let element = try await base.next(isolation: actor) { return .element(element) }
                ended = true
                return .finished
            } catch {
                ended = true
                return .failure(error)
            }
        }
    }
}

extension AsyncMaterializeSequence: Sendable where Base: Sendable {}
