/// An asynchronous sequence of fixed elements that never suspends: every `next` returns at
/// once, and cancellation is not checked. It stands in for a fast producer that ignores
/// cancellation, the hardest upstream for an operator to stop.
///
/// ```swift
/// let inner = ImmediateSequence(Array(repeating: generation, count: 100))
/// ```
public struct ImmediateSequence<Element: Sendable>: AsyncSequence, Sendable {
    /// Never fails.
    public typealias Failure = Never

    private let elements: [Element]

    /// Creates a sequence of `elements`, in order.
    public init(_ elements: [Element]) {
        self.elements = elements
    }

    /// Makes an iterator from the first element.
    public func makeAsyncIterator() -> Iterator {
        Iterator(elements: elements)
    }

    /// Returns the elements one by one without suspending.
    public struct Iterator: AsyncIteratorProtocol {
        private let elements: [Element]
        private var position = 0

        fileprivate init(elements: [Element]) {
            self.elements = elements
        }

        /// The next element, or `nil` after the last.
        public mutating func next() async -> Element? {
            guard position < elements.count else { return nil }
            defer { position += 1 }
            return elements[position]
        }

        /// The next element, or `nil` after the last.
        public mutating func next(isolation actor: isolated (any Actor)?) async -> Element? {
            guard position < elements.count else { return nil }
            defer { position += 1 }
            return elements[position]
        }
    }
}
