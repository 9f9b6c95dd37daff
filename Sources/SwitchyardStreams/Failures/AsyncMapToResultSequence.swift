extension AsyncSequence {
    /// Wraps each element in `.success` and a failure in one last `.failure` (then finishes),
    /// so the failure travels as a value through operators that need `Failure == Never`.
    ///
    /// Emits `.success` per element, then `.failure` at most once; never fails. Buffers
    /// nothing and starts no task. `materialize()` does the same with a finish event too.
    ///
    /// ```swift
    /// for await result in loads.mapToResult() { state.apply(result) }
    /// ```
    @inlinable public func mapToResult() -> AsyncMapToResultSequence<Self> {
        AsyncMapToResultSequence(base: self)
    }
}

/// A base sequence's elements and failure as `Result` values. Made by `mapToResult()`.
public struct AsyncMapToResultSequence<Base: AsyncSequence>: AsyncSequence {
    /// An element of the base, or its failure.
    public typealias Element = Result<Base.Element, Base.Failure>
    /// Never: the failure is an element.
    public typealias Failure = Never

    @usableFromInline let base: Base

    @inlinable init(base: Base) {
        self.base = base
    }

    /// Makes an iterator of the base.
    @inlinable public func makeAsyncIterator() -> Iterator {
        Iterator(base: base.makeAsyncIterator())
    }

    /// Iterates the base, ending after its failure.
    public struct Iterator: AsyncIteratorProtocol, ConsumerPacedIterator {
        @usableFromInline var base: Base.AsyncIterator?

        @inlinable init(base: Base.AsyncIterator) {
            self.base = base
        }

        /// The next element as `.success`, the failure as `.failure`, then `nil`.
        @inlinable public mutating func next(isolation actor: isolated (any Actor)?) async -> Element? {
            guard var iterator = base else { return nil }
            do {
                guard let element = try await iterator.next(isolation: actor) else {
                    base = nil
                    return nil
                }
                base = iterator
                return .success(element)
            } catch {
                base = nil
                return .failure(error)
            }
        }
    }
}

extension AsyncMapToResultSequence: Sendable where Base: Sendable {}

@available(*, unavailable)
extension AsyncMapToResultSequence.Iterator: Sendable {}
