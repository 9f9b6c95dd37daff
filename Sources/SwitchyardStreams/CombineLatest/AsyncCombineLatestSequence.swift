extension AsyncSequence where Self: Sendable, Element: Sendable {
    /// Combines this sequence with one or more others into tuples of their latest elements.
    ///
    /// - **Emits** a tuple each time any input produces an element, once every input has
    ///   produced at least one; before that it emits nothing.
    /// - **Finishes** when every input has finished, or as soon as an input finishes without
    ///   ever producing an element (no tuple could ever be complete).
    /// - **Fails** with the first failure of any input, after the tuples emitted before it;
    ///   the other inputs are cancelled.
    /// - **Buffers** only the latest element of each input (earlier ones are replaced, by
    ///   design), and up to 64 tuples the consumer has not taken; an input that finds that
    ///   buffer full waits for the consumer, so the operator runs at the consumer's pace and
    ///   never waits for another input.
    ///
    /// Making the iterator subscribes to every input (makes its iterator); each input is then
    /// read, from the first `next` on, by one task the operator owns and cancels when the
    /// consumer's task is cancelled or its iterator is released. All inputs share this
    /// sequence's failure type.
    ///
    /// ```swift
    /// for await (frontal, lateral) in frontalTilt.combineLatest(lateralTilt) {
    ///     print(frontal == .upright && lateral == .upright ? "vertical" : "not vertical")
    /// }
    /// ```
    @inlinable public func combineLatest<Other: AsyncSequence & Sendable, each More: Sendable>(
        _ other: Other,
        _ more: repeat any AsyncSequence<each More, Failure> & Sendable
    ) -> AsyncCombineLatestSequence<(Element, Other.Element, repeat each More), Failure>
    where Other.Element: Sendable, Other.Failure == Failure {
        AsyncCombineLatestSequence(tupleInputs(other, repeat each more))
    }
}

/// Combines `first`, `second` and any `more` into tuples of their latest elements; see
/// `AsyncSequence.combineLatest(_:_:)` for when it emits, finishes and fails.
///
/// ```swift
/// for await (frontal, lateral) in combineLatest(frontalTilt, lateralTilt) { show(frontal, lateral) }
/// ```
@_disfavoredOverload  // swift-async-algorithms' operator of the same name wins when both are imported
@inlinable public func combineLatest<First: AsyncSequence & Sendable, Second: AsyncSequence & Sendable, each More: Sendable>(
    _ first: First,
    _ second: Second,
    _ more: repeat any AsyncSequence<each More, First.Failure> & Sendable
) -> AsyncCombineLatestSequence<(First.Element, Second.Element, repeat each More), First.Failure>
where First.Element: Sendable, Second.Element: Sendable, Second.Failure == First.Failure {
    first.combineLatest(second, repeat each more)
}

/// Tuples of the latest elements of several sequences. Made by `combineLatest(_:_:)`.
public struct AsyncCombineLatestSequence<Element: Sendable, Failure: Error>: AsyncSequence, Sendable, DrivenOperator {
    /// Takes the combined tuples; `nil` once the inputs finished or the task was cancelled,
    /// and throws the first failure of any input.
    public typealias Iterator = AsyncOperatorIterator<Self, Element, Failure>
    @usableFromInline typealias Machine = CombineLatestStateMachine<any Sendable>

    @usableFromInline let inputs: TupleInputs<Element, Failure>

    @inlinable init(_ inputs: TupleInputs<Element, Failure>) {
        self.inputs = inputs
    }

    /// Makes an iterator, subscribing to every input at once (by making its iterator); the
    /// inputs are read from the first `next` on.
    @inlinable public func makeAsyncIterator() -> Iterator {
        Iterator(inputs.start(Machine(inputs: inputs.count)))
    }
}
