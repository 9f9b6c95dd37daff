/// A sequence of one element: the result of an asynchronous call made on the first `next`.
/// It lets the `flatMapLatest` and `flatMap` forms that take an async closure reuse the
/// inner-sequence machinery.
@usableFromInline struct AsyncOperationSequence<Element: Sendable, Failure: Error>: AsyncSequence, Sendable {
    @usableFromInline let operation: @Sendable () async throws(Failure) -> Element

    @inlinable init(_ operation: @escaping @Sendable () async throws(Failure) -> Element) {
        self.operation = operation
    }

    @inlinable func makeAsyncIterator() -> Iterator {
        Iterator(operation: operation)
    }

    @usableFromInline struct Iterator: AsyncIteratorProtocol {
        @usableFromInline let operation: @Sendable () async throws(Failure) -> Element
        @usableFromInline var done = false

        @inlinable init(operation: @escaping @Sendable () async throws(Failure) -> Element) {
            self.operation = operation
        }

        @inlinable mutating func next() async throws(Failure) -> Element? {
            guard !done else { return nil }
            done = true
            return try await operation()
        }

        @inlinable mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
            guard !done else { return nil }
            done = true
            return try await operation()
        }
    }
}
