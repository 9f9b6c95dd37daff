/// A sequence of one element: the result of an asynchronous call made on the first `next`.
/// It lets the `flatMapLatest` and `flatMap` forms that take an async closure reuse the
/// inner-sequence machinery.
struct AsyncOperationSequence<Element: Sendable, Failure: Error>: AsyncSequence, Sendable {
    let operation: @Sendable () async throws(Failure) -> Element

    init(_ operation: @escaping @Sendable () async throws(Failure) -> Element) {
        self.operation = operation
    }

    func makeAsyncIterator() -> Iterator {
        Iterator(operation: operation)
    }

    struct Iterator: AsyncIteratorProtocol {
        let operation: @Sendable () async throws(Failure) -> Element
        var done = false

        mutating func next() async throws(Failure) -> Element? {
            guard !done else { return nil }
            done = true
            return try await operation()
        }

        mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
            try await next()
        }
    }
}
