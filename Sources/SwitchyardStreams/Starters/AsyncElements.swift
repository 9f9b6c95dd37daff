/// A sequence of the given elements, then the end (Combine's `Publishers.Sequence`, `[1, 2].publisher`).
///
/// Every iterator emits all of `elements` in order without suspending, then finishes; it
/// never fails (`Failure` is only there so it fits beside sequences that can). Cancellation
/// is not checked: the elements are already there.
///
/// ```swift
/// let defaults = AsyncElements([Place.home, Place.work])
/// ```
public struct AsyncElements<Element, Failure: Error>: AsyncSequence {
    @usableFromInline let elements: [Element]

    /// A sequence of `elements`, with the failure type `failure` (never thrown).
    @inlinable public init(_ elements: [Element], failure _: Failure.Type = Failure.self) {
        self.elements = elements
    }

    /// Makes an iterator from the first element.
    @inlinable public func makeAsyncIterator() -> Iterator {
        Iterator(elements: elements)
    }

    /// Hands out the elements in order.
    public struct Iterator: AsyncIteratorProtocol {
        @usableFromInline let elements: [Element]
        @usableFromInline var position = 0

        @inlinable init(elements: [Element]) {
            self.elements = elements
        }

        /// The next element, or `nil` after the last.
        @inlinable public mutating func next() async throws(Failure) -> Element? {
            guard position < elements.count else { return nil }
            defer { position += 1 }
            return elements[position]
        }

        /// The next element, or `nil` after the last.
        @inlinable public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
            guard position < elements.count else { return nil }
            defer { position += 1 }
            return elements[position]
        }
    }
}

extension AsyncElements where Failure == Never {
    /// A never-failing sequence of `elements`.
    @inlinable public init(_ elements: [Element]) {
        self.elements = elements
    }
}

extension AsyncElements: Sendable where Element: Sendable {}

@available(*, unavailable)
extension AsyncElements.Iterator: Sendable {}
