/// A hand-driven asynchronous sequence with a typed failure, for testing what consumes it.
///
/// A test sends elements, then finishes or fails the source, and can wait for what the consumer
/// did with them: ``waitForDemand()`` returns once every sent element was taken and the consumer
/// asks for the next one (so it has handled the last), and ``waitForTermination()`` returns once
/// every iterator is gone or was cancelled (so whatever iterated has stopped).
///
/// Elements wait in an unbounded buffer until taken; several iterators compete for them. After
/// ``finish()`` iterators drain the buffer and then end; after ``fail(_:)`` they drain it, one of
/// them throws the failure, and then all end. Cancelling a waiting `next` makes it return `nil`.
///
/// ```swift
/// let source = TestSource<Int, MyError>()
/// let task = Task { try await source.map { $0 * 2 }.first { _ in true } }
/// source.send(21)
/// #expect(try await task.value == 42)
/// await source.waitForTermination()
/// ```
public struct TestSource<Element: Sendable, Failure: Error>: AsyncSequence, Sendable {
    private let storage = TestSourceStorage<Element, Failure>()

    /// Creates a source with nothing sent yet.
    public init() {}

    /// Delivers `element` to a waiting iterator, or buffers it until one asks.
    ///
    /// - Returns: `false`, dropping the element, when the source was already finished or failed.
    @discardableResult
    public func send(_ element: Element) -> Bool {
        storage.send(element)
    }

    /// Ends the source once the buffered elements have been taken.
    ///
    /// - Returns: `false` when the source was already finished or failed.
    @discardableResult
    public func finish() -> Bool {
        storage.terminate(with: nil)
    }

    /// Fails the source with `failure` once the buffered elements have been taken.
    ///
    /// - Returns: `false` when the source was already finished or failed.
    @discardableResult
    public func fail(_ failure: Failure) -> Bool {
        storage.terminate(with: failure)
    }

    /// How many iterators have been made, over the source's whole life.
    public var iteratorCount: Int { storage.iteratorCount }

    /// How many sent elements wait in the buffer for an iterator.
    public var bufferedCount: Int { storage.bufferedCount }

    /// How many iterators exist and have not been cancelled.
    public var activeIteratorCount: Int { storage.activeIteratorCount }

    /// Suspends until every sent element was taken and an iterator waits for the next one, the
    /// end was delivered, or every iterator is gone. Returns early when the task is cancelled.
    public func waitForDemand() async {
        await storage.wait(for: .demand)
    }

    /// Suspends until at least one iterator was made and every iterator has been released or
    /// cancelled. Returns early when the task is cancelled.
    public func waitForTermination() async {
        await storage.wait(for: .termination)
    }

    /// Makes an iterator that competes with the others for the sent elements.
    public func makeAsyncIterator() -> Iterator {
        Iterator(consumer: storage.makeConsumer())
    }

    /// Takes the elements of a ``TestSource``.
    public struct Iterator: AsyncIteratorProtocol {
        let consumer: TestSourceStorage<Element, Failure>.Consumer

        /// The next sent element, `nil` after the end or on cancellation.
        /// - Throws: The failure passed to ``TestSource/fail(_:)``, once.
        public mutating func next() async throws(Failure) -> Element? {
            try await consumer.next(isolation: nil)
        }

        /// The next sent element, `nil` after the end or on cancellation.
        /// - Throws: The failure passed to ``TestSource/fail(_:)``, once.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
            try await consumer.next(isolation: actor)
        }
    }
}

@available(*, unavailable)
extension TestSource.Iterator: Sendable {}
