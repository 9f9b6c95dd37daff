/// A sequence made anew for each iterator, when the iterator is made (Combine's `Deferred`):
/// work that a sequence starts when it is created happens per consumer, not once up front.
///
/// Emits, finishes and fails exactly like the sequence `make` returns; buffers nothing and
/// starts no task.
///
/// ```swift
/// let readings = AsyncDeferred { sensor.open() }   // opened by each consumer
/// ```
public struct AsyncDeferred<Base: AsyncSequence>: AsyncSequence {
    /// The made sequence's element type.
    public typealias Element = Base.Element
    /// The made sequence's failure type.
    public typealias Failure = Base.Failure

    @usableFromInline let make: @Sendable () -> Base

    /// A sequence that calls `make` for each iterator.
    @inlinable public init(_ make: @escaping @Sendable () -> Base) {
        self.make = make
    }

    /// Makes the sequence and returns its iterator.
    @inlinable public func makeAsyncIterator() -> Base.AsyncIterator {
        make().makeAsyncIterator()
    }
}

extension AsyncDeferred: Sendable {}
