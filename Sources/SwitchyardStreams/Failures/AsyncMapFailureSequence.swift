extension AsyncSequence {
    /// Turns this sequence's failure into another failure type (Combine's `mapError`).
    ///
    /// - **Emits** this sequence's elements unchanged.
    /// - **Finishes** when this sequence finishes.
    /// - **Fails** with `transform(failure)` when this sequence fails.
    /// - **Buffers** nothing and starts no task.
    ///
    /// ```swift
    /// let replies = rawReplies.mapFailure { ReplyError.transport($0) }
    /// ```
    @inlinable public func mapFailure<NewFailure: Error>(
        _ transform: @escaping @Sendable (Failure) -> NewFailure
    ) -> AsyncMapFailureSequence<Self, NewFailure> {
        AsyncMapFailureSequence(base: self, transform: transform)
    }

    /// The same as ``mapFailure(_:)``, under Combine's name.
    @_disfavoredOverload  // swift-async-algorithms' operator of the same name wins when both are imported
    @inlinable public func mapError<NewFailure: Error>(
        _ transform: @escaping @Sendable (Failure) -> NewFailure
    ) -> AsyncMapFailureSequence<Self, NewFailure> {
        AsyncMapFailureSequence(base: self, transform: transform)
    }
}

extension AsyncSequence where Failure == Never {
    /// Gives a sequence that cannot fail the failure type `NewFailure`, so it combines with
    /// sequences that can (Combine's `setFailureType(to:)`).
    ///
    /// Emits and finishes exactly like this sequence; never fails. Buffers nothing and starts
    /// no task.
    ///
    /// ```swift
    /// let reloads = reloadTaps.setFailureType(to: APIError.self)
    /// ```
    @inlinable public func setFailureType<NewFailure: Error>(to _: NewFailure.Type) -> AsyncMapFailureSequence<Self, NewFailure> {
        AsyncMapFailureSequence(base: self, transform: absurd)
    }
}

/// A base sequence whose failure is turned into another type. Made by `mapFailure(_:)`,
/// `mapError(_:)` and `setFailureType(to:)`.
public struct AsyncMapFailureSequence<Base: AsyncSequence, NewFailure: Error>: AsyncSequence {
    /// The base's element type.
    public typealias Element = Base.Element
    /// The failure type after the transform.
    public typealias Failure = NewFailure

    @usableFromInline let base: Base
    @usableFromInline let transform: @Sendable (Base.Failure) -> NewFailure

    @inlinable init(base: Base, transform: @escaping @Sendable (Base.Failure) -> NewFailure) {
        self.base = base
        self.transform = transform
    }

    /// Makes an iterator of the base.
    @inlinable public func makeAsyncIterator() -> Iterator {
        Iterator(base: base.makeAsyncIterator(), transform: transform)
    }

    /// Iterates the base, transforming its failure.
    public struct Iterator: AsyncIteratorProtocol, ConsumerPacedIterator {
        @usableFromInline var base: Base.AsyncIterator
        @usableFromInline let transform: @Sendable (Base.Failure) -> NewFailure

        @inlinable init(base: Base.AsyncIterator, transform: @escaping @Sendable (Base.Failure) -> NewFailure) {
            self.base = base
            self.transform = transform
        }

        /// The base's next element.
        /// - Throws: The base's failure, transformed.
        @inlinable public mutating func next(isolation actor: isolated (any Actor)?) async throws(NewFailure) -> Element? {
            do {
                return try await base.next(isolation: actor)
            } catch {
                throw transform(error)
            }
        }
    }
}

extension AsyncMapFailureSequence: Sendable where Base: Sendable {}

@available(*, unavailable)
extension AsyncMapFailureSequence.Iterator: Sendable {}

/// The transform of a failure that cannot happen.
@inlinable func absurd<NewFailure: Error>(_ never: Never) -> NewFailure {}
