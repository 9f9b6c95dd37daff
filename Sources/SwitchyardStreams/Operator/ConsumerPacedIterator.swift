/// The iterator of an operator that starts no task: it reads its base (or makes its elements)
/// inside the consumer's own `next`, at the consumer's pace, so it never reads ahead.
///
/// Each such iterator writes its logic once, in `next(isolation:)`, which runs on the
/// consumer's actor (a consumer on the main actor never hops off it per element); `next()`
/// comes from here and runs the same logic without an actor. Everything is `@inlinable`, so a
/// client specializes a whole chain of operators as if each had written both.
@usableFromInline protocol ConsumerPacedIterator: AsyncIteratorProtocol {}

extension ConsumerPacedIterator {
    /// The operator's next element, as `next(isolation:)` without an actor; `nil` once the
    /// operator has ended. The operator's type documents what it emits, when it ends and what
    /// it throws.
    /// - Throws: The operator's failure.
    @inlinable public mutating func next() async throws(Failure) -> Element? {
        try await next(isolation: nil)
    }
}
