/// A sequence of one element, then the finish (Combine's `Just`). Each iterator emits it
/// once; never fails, never suspends.
///
/// ```swift
/// let rates = fetchedRates.catch { _ in AsyncJust(cachedRates) }
/// ```
public struct AsyncJust<Element>: AsyncSequence {
    /// Never: the element is always there.
    public typealias Failure = Never

    @usableFromInline let element: Element

    /// A sequence emitting `element`, then finishing.
    @inlinable public init(_ element: Element) {
        self.element = element
    }

    /// Makes an iterator that emits the element once.
    @inlinable public func makeAsyncIterator() -> Iterator {
        Iterator(element: element)
    }

    /// Emits the element, then `nil`.
    public struct Iterator: AsyncIteratorProtocol {
        @usableFromInline var element: Element?

        @inlinable init(element: Element) {
            self.element = element
        }

        /// The element the first time, `nil` afterwards.
        @inlinable public mutating func next() async -> Element? {
            defer { element = nil }
            return element
        }

        /// The element the first time, `nil` afterwards.
        @inlinable public mutating func next(isolation actor: isolated (any Actor)?) async -> Element? {
            defer { element = nil }
            return element
        }
    }
}

extension AsyncJust: Sendable where Element: Sendable {}

/// A sequence that finishes at once without an element (Combine's `Empty`). Never suspends.
///
/// ```swift
/// let none: AsyncEmpty<Int, Never> = AsyncEmpty()
/// ```
public struct AsyncEmpty<Element, Failure: Error>: AsyncSequence, Sendable {
    /// An empty sequence; the types usually come from the context.
    @inlinable public init(of _: Element.Type = Element.self, failure _: Failure.Type = Failure.self) {}

    /// Makes an iterator that ends at once.
    @inlinable public func makeAsyncIterator() -> Iterator {
        Iterator()
    }

    /// Returns `nil` at once.
    public struct Iterator: AsyncIteratorProtocol {
        @inlinable init() {}

        /// Always `nil`.
        @inlinable public mutating func next() async throws(Failure) -> Element? { nil }

        /// Always `nil`.
        @inlinable public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? { nil }
    }
}

/// A sequence that fails at once with a given failure, without an element (Combine's
/// `Fail`). Each iterator throws it once, then returns `nil`; never suspends.
///
/// ```swift
/// let offline = AsyncFail(of: Data.self, APIError.offline)
/// ```
public struct AsyncFail<Element, Failure: Error>: AsyncSequence {
    @usableFromInline let failure: Failure

    /// A sequence failing with `failure`.
    @inlinable public init(of _: Element.Type = Element.self, _ failure: Failure) {
        self.failure = failure
    }

    /// Makes an iterator that throws the failure on its first `next`.
    @inlinable public func makeAsyncIterator() -> Iterator {
        Iterator(failure: failure)
    }

    /// Throws the failure, then returns `nil`.
    public struct Iterator: AsyncIteratorProtocol {
        @usableFromInline var failure: Failure?

        @inlinable init(failure: Failure) {
            self.failure = failure
        }

        /// Throws the failure the first time, returns `nil` afterwards.
        @inlinable public mutating func next() async throws(Failure) -> Element? {
            try take()
        }

        /// Throws the failure the first time, returns `nil` afterwards.
        @inlinable public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
            try take()
        }

        @inlinable mutating func take() throws(Failure) -> Element? {
            guard let failure else { return nil }
            self.failure = nil
            throw failure
        }
    }
}

extension AsyncFail: Sendable where Failure: Sendable {}
