extension AsyncSequence where Self: Sendable, Element: Sendable {
    /// Interleaves the elements of this sequence and `others` in the order they arrive.
    ///
    /// - **Emits** each element of any input as soon as that input produces it; the elements
    ///   of one input keep their order.
    /// - **Finishes** when every input has finished.
    /// - **Fails** with the first failure of any input, after the elements emitted before it;
    ///   the other inputs are cancelled.
    /// - **Buffers** up to 64 elements the consumer has not taken yet; an input that finds the
    ///   buffer full waits until the consumer has taken half of it.
    ///
    /// Making the iterator subscribes to every input (makes its iterator); each input is then
    /// read, from the first `next` on, by one task the operator owns and cancels when the
    /// consumer's task is cancelled or its iterator is released.
    ///
    /// ```swift
    /// for await event in taps.merge(with: swipes, keys) {
    ///     handle(event)
    /// }
    /// ```
    public func merge(
        with others: (any AsyncSequence<Element, Failure> & Sendable)...
    ) -> AsyncMergeSequence<Element, Failure> {
        AsyncMergeSequence(bases: [self] + others)
    }
}

/// Interleaves the elements of `base` and `others` in the order they arrive; see
/// `AsyncSequence.merge(with:)` for when it emits, finishes and fails.
///
/// ```swift
/// for await event in merge(taps, swipes) { handle(event) }
/// ```
public func merge<Base: AsyncSequence & Sendable>(
    _ base: Base,
    _ others: (any AsyncSequence<Base.Element, Base.Failure> & Sendable)...
) -> AsyncMergeSequence<Base.Element, Base.Failure> where Base.Element: Sendable {
    AsyncMergeSequence(bases: [base] + others)
}

/// The elements of several sequences with one element and failure type, interleaved in
/// arrival order. Made by `merge(with:)` or `merge(_:_:)`.
public struct AsyncMergeSequence<Element: Sendable, Failure: Error>: AsyncSequence, Sendable {
    typealias Driver = OperatorDriver<MergeStateMachine, Element, Failure>

    private let bases: [any AsyncSequence<Element, Failure> & Sendable]

    init(bases: [any AsyncSequence<Element, Failure> & Sendable]) {
        self.bases = bases
    }

    /// Merges a number of sequences known only at run time; an empty array finishes at once.
    ///
    /// ```swift
    /// let all = AsyncMergeSequence(feeds.map(\.updates))
    /// ```
    public init(_ bases: [any AsyncSequence<Element, Failure> & Sendable]) {
        self.bases = bases
    }

    /// Makes an iterator, subscribing to every input at once (by making its iterator); the
    /// inputs are read from the first `next` on.
    public func makeAsyncIterator() -> Iterator {
        let driver = Driver(machine: MergeStateMachine(inputs: bases.count))
        if bases.isEmpty { driver.update { _, output in output.finish() } }
        for base in bases { Self.start(base, into: driver) }
        return Iterator(handle: OperatorDriverHandle(driver))
    }

    private static func start(_ base: some AsyncSequence<Element, Failure> & Sendable, into driver: Driver) {
        let iterator = base.makeAsyncIterator()
        driver.spawn {
            var iterator = iterator
            guard await driver.waitForStart() else { return }
            let end = await drain(&iterator) { element in
                await driver.updateThenWaitForRoom { _, output in output.emit(element) }
            }
            driver.update { machine, output in
                switch end {
                case .success:
                    if machine.inputFinished() == .finish { output.finish() }
                case .failure(let failure):
                    if machine.inputFailed() == .fail { output.fail(failure) }
                }
            }
        }
    }

    /// Takes the merged elements; not shareable between tasks.
    public struct Iterator: AsyncIteratorProtocol {
        private let handle: OperatorDriverHandle<MergeStateMachine, Element, Failure>

        fileprivate init(handle: OperatorDriverHandle<MergeStateMachine, Element, Failure>) {
            self.handle = handle
        }

        /// The next element; `nil` once every input finished or the task was cancelled.
        /// - Throws: The first failure of any input.
        public mutating func next() async throws(Failure) -> Element? {
            try await handle.driver.next(isolation: nil)
        }

        /// The next element; `nil` once every input finished or the task was cancelled.
        /// - Throws: The first failure of any input.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
            try await handle.driver.next(isolation: actor)
        }
    }
}

@available(*, unavailable)
extension AsyncMergeSequence.Iterator: Sendable {}
