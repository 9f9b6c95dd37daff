extension AsyncSequence {
    /// The first element, reading no further (Combine's `first()`); `nil` when this sequence
    /// finishes empty.
    /// - Throws: This sequence's failure when it fails before its first element.
    @inlinable public func first(isolation actor: isolated (any Actor)? = #isolation) async throws(Failure) -> Element? {
        var iterator = makeAsyncIterator()
        return try await iterator.next(isolation: actor)
    }

    /// The last element, once this sequence has finished (Combine's `last()`); `nil` when it
    /// finishes empty. Keeps only the latest element while it reads.
    /// - Throws: This sequence's failure: a failing sequence has no last element.
    @inlinable public func last(isolation actor: isolated (any Actor)? = #isolation) async throws(Failure) -> Element? {
        try await last(isolation: actor) { _ in true }
    }

    /// The last element that satisfies `predicate`, once this sequence has finished
    /// (Combine's `last(where:)`); `nil` when none does.
    /// - Throws: This sequence's failure: a failing sequence has no last element.
    @inlinable public func last(
        isolation actor: isolated (any Actor)? = #isolation,
        where predicate: (Element) -> Bool
    ) async throws(Failure) -> Element? {
        var iterator = makeAsyncIterator()
        var last: Element?
        while let element = try await iterator.next(isolation: actor) {
            if predicate(element) { last = element }
        }
        return last
    }

    /// How many elements this sequence produced, once it has finished (Combine's `count()`).
    /// - Throws: This sequence's failure.
    @inlinable public func count(isolation actor: isolated (any Actor)? = #isolation) async throws(Failure) -> Int {
        var iterator = makeAsyncIterator()
        var count = 0
        while try await iterator.next(isolation: actor) != nil { count += 1 }
        return count
    }
}
