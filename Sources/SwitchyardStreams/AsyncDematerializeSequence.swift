extension AsyncSequence where Failure == Never {
    /// Turns a sequence of ``StreamEvent`` values back into the sequence they describe, with
    /// its typed failure.
    ///
    /// - **Emits** the element of each `.element` event.
    /// - **Finishes** at a `.finished` event, or when this sequence ends without one.
    /// - **Fails** with the failure of a `.failure` event.
    /// - **Buffers** nothing. Starts no task. Events after the first `.failure` or `.finished`
    ///   are not read.
    ///
    /// ```swift
    /// let replies: some AsyncSequence<Reply, FetchError> = recordedEvents.dematerialize()
    /// ```
    @inlinable public func dematerialize<Value, EventFailure: Error>() -> AsyncDematerializeSequence<Self, Value, EventFailure>
    where Element == StreamEvent<Value, EventFailure> {
        AsyncDematerializeSequence(self)
    }
}

/// The sequence a base sequence of events describes. Made by `dematerialize()`.
public struct AsyncDematerializeSequence<Base: AsyncSequence, Element, Failure: Error>: AsyncSequence
where Base.Element == StreamEvent<Element, Failure>, Base.Failure == Never {
    @usableFromInline let base: Base

    @inlinable init(_ base: Base) {
        self.base = base
    }

    /// Makes an iterator over the described elements.
    @inlinable public func makeAsyncIterator() -> Iterator {
        Iterator(base: base.makeAsyncIterator())
    }

    /// Takes the described elements.
    public struct Iterator: AsyncIteratorProtocol, ConsumerPacedIterator {
        @usableFromInline var base: Base.AsyncIterator
        @usableFromInline var ended = false

        @inlinable init(base: Base.AsyncIterator) {
            self.base = base
        }

        /// The next described element; `nil` at `.finished` or when the events end.
        /// - Throws: The failure of a `.failure` event.
        @inlinable public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
            guard !ended, let event = await base.next(isolation: actor) else { return nil }
            switch event {
            case .element(let element):
                return element
            case .failure(let failure):
                ended = true
                throw failure
            case .finished:
                ended = true
                return nil
            }
        }
    }
}

extension AsyncDematerializeSequence: Sendable where Base: Sendable {}
