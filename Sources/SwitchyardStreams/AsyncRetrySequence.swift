extension AsyncSequence {
    /// Starts this sequence over after a failure, up to `retries` times.
    ///
    /// - **Emits** the elements of each attempt in turn; elements emitted before a failure stay
    ///   emitted, so a sequence that fails half-way may repeat its first elements.
    /// - **Finishes** when an attempt finishes.
    /// - **Fails** with the failure of the last allowed attempt, or at once when the consuming
    ///   task is cancelled (a cancelled task is never retried).
    /// - **Buffers** nothing. Starts no task: each attempt is a new iterator made in `next`.
    ///
    /// ```swift
    /// for try await quote in quotesFromServer.retry(3) { show(quote) }
    /// ```
    ///
    /// - Precondition: `retries` is not negative.
    @inlinable public func retry(_ retries: Int) -> AsyncRetrySequence<Self> {
        precondition(retries >= 0, "retry(_:) needs a number of retries >= 0, got \(retries)")
        return AsyncRetrySequence(self, retries: retries)
    }
}

/// A base sequence started over after failures. Made by `retry(_:)`.
public struct AsyncRetrySequence<Base: AsyncSequence>: AsyncSequence {
    /// The base's element type.
    public typealias Element = Base.Element
    /// The base's failure type, unchanged.
    public typealias Failure = Base.Failure

    @usableFromInline let base: Base
    @usableFromInline let retries: Int

    @inlinable init(_ base: Base, retries: Int) {
        self.base = base
        self.retries = retries
    }

    /// Makes an iterator with the full number of retries.
    @inlinable public func makeAsyncIterator() -> Iterator {
        Iterator(base: base, retriesLeft: retries)
    }

    /// Takes the elements of the current attempt, starting a new one after a failure.
    public struct Iterator: AsyncIteratorProtocol, ConsumerPacedIterator {
        @usableFromInline let base: Base
        @usableFromInline var attempt: Base.AsyncIterator
        @usableFromInline var retriesLeft: Int

        @inlinable init(base: Base, retriesLeft: Int) {
            self.base = base
            self.attempt = base.makeAsyncIterator()
            self.retriesLeft = retriesLeft
        }

        /// The next element of the current attempt; `nil` when an attempt finishes.
        /// - Throws: The failure of the last attempt.
        @inlinable public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
            while true {
                do throws(Failure) {
                    return try await attempt.next(isolation: actor)
                } catch {
                    guard retriesLeft > 0, !Task.isCancelled else { throw error }
                    retriesLeft -= 1
                    attempt = base.makeAsyncIterator()
                }
            }
        }
    }
}

extension AsyncRetrySequence: Sendable where Base: Sendable {}
