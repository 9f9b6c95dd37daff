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
    @inlinable public func merge(
        with others: (any AsyncSequence<Element, Failure> & Sendable)...
    ) -> AsyncMergeSequence<Element, Failure> {
        AsyncMergeSequence(inputs: [OperatorInput(self)] + others.map { OperatorInput($0) })
    }

    /// Interleaves the elements of this sequence and `other` in the order they arrive; the
    /// same as the variadic `merge(with:)`, for two inputs whose types are known, which lets
    /// the compiler specialize the whole merge.
    ///
    /// ```swift
    /// for await event in taps.merge(with: swipes) { handle(event) }
    /// ```
    @inlinable public func merge<Other: AsyncSequence & Sendable>(
        with other: Other
    ) -> AsyncMergeSequence<Element, Failure> where Other.Element == Element, Other.Failure == Failure {
        AsyncMergeSequence(inputs: [OperatorInput(self), OperatorInput(other)])
    }
}

/// Interleaves the elements of `base` and `others` in the order they arrive; see
/// `AsyncSequence.merge(with:)` for when it emits, finishes and fails.
///
/// ```swift
/// for await event in merge(taps, swipes, keys) { handle(event) }
/// ```
@_disfavoredOverload  // swift-async-algorithms' operator of the same name wins when both are imported
@inlinable public func merge<Base: AsyncSequence & Sendable>(
    _ base: Base,
    _ others: (any AsyncSequence<Base.Element, Base.Failure> & Sendable)...
) -> AsyncMergeSequence<Base.Element, Base.Failure> where Base.Element: Sendable {
    AsyncMergeSequence(inputs: [OperatorInput(base)] + others.map { OperatorInput($0) })
}

/// Interleaves the elements of `first` and `second` in the order they arrive; the two-input
/// form of `merge(_:_:)`, specialized for the inputs' types.
///
/// ```swift
/// for await event in merge(taps, swipes) { handle(event) }
/// ```
@_disfavoredOverload  // swift-async-algorithms' operator of the same name wins when both are imported
@inlinable public func merge<First: AsyncSequence & Sendable, Second: AsyncSequence & Sendable>(
    _ first: First,
    _ second: Second
) -> AsyncMergeSequence<First.Element, First.Failure>
where First.Element: Sendable, Second.Element == First.Element, Second.Failure == First.Failure {
    AsyncMergeSequence(inputs: [OperatorInput(first), OperatorInput(second)])
}

/// The elements of several sequences with one element and failure type, interleaved in
/// arrival order. Made by `merge(with:)` or `merge(_:_:)`.
public struct AsyncMergeSequence<Element: Sendable, Failure: Error>: AsyncSequence, Sendable, DrivenOperator {
    /// Takes the merged elements; `nil` once every input finished or the task was cancelled,
    /// and throws the first failure of any input.
    public typealias Iterator = AsyncOperatorIterator<Self, Element, Failure>
    @usableFromInline typealias Machine = MergeStateMachine
    @usableFromInline typealias Driver = OperatorDriver<Machine, Element, Failure>

    @usableFromInline let inputs: [OperatorInput<Element, Failure>]

    @inlinable init(inputs: [OperatorInput<Element, Failure>]) {
        self.inputs = inputs
    }

    /// Merges a number of sequences known only at run time; an empty array finishes at once.
    ///
    /// ```swift
    /// let all = AsyncMergeSequence(feeds.map(\.updates))
    /// ```
    @inlinable public init(_ bases: [any AsyncSequence<Element, Failure> & Sendable]) {
        self.inputs = bases.map { OperatorInput($0) }
    }

    /// Makes an iterator, subscribing to every input at once (by making its iterator); the
    /// inputs are read from the first `next` on.
    @inlinable public func makeAsyncIterator() -> Iterator {
        let driver = Driver(machine: Machine(inputs: inputs.count))
        if inputs.isEmpty { driver.update { _, output in output.finish() } }
        for input in inputs { Self.start(input.subscribe(), into: driver) }
        return Iterator(driver)
    }

    @inlinable static func start(_ run: sending @escaping OperatorInput<Element, Failure>.Run, into driver: Driver) {
        driver.spawnAfterStart {
            let end = await run { element in
                await driver.updateThenWaitForRoom { _, output in output.emit(element) }
            }
            driver.inputEnded(end) { machine, failed in failed ? machine.inputFailed() : machine.inputFinished() }
        }
    }
}
