extension AsyncSequence where Self: Sendable, Element: Sendable {
    /// Pairs the elements of this sequence with those of one or more others, position by
    /// position: the first of each, then the second of each, and so on.
    ///
    /// - **Emits** a tuple as soon as every input has produced its next element.
    /// - **Finishes** as soon as an input has finished and all its elements were paired (no
    ///   further tuple is possible); the other inputs are cancelled.
    /// - **Fails** with an input's failure at its position: once the input's earlier elements
    ///   are paired, so the tuples they make are always emitted first (as in
    ///   swift-async-algorithms); the other inputs are cancelled.
    /// - **Reads ahead** of the others at most 16 elements per input, and makes at most 64
    ///   tuples the consumer has not taken; then an input waits. So an input that never
    ///   suspends cannot take a thread and fill memory while another input has not produced
    ///   anything. To zip a push source with one far ahead of it (one `viewDidLoad` with a
    ///   stream of taps that others consume too), `share()` the fast one: what the zip has not
    ///   read waits in its subscriber buffer, and the source is never held back.
    ///
    /// Making the iterator subscribes to every input (makes its iterator); each input is then
    /// read, from the first `next` on, by one task the operator owns and cancels when the
    /// consumer's task is cancelled or its iterator is released. All inputs share this
    /// sequence's failure type; `zip(_:)` of two inputs also takes one of another type.
    ///
    /// ```swift
    /// for await (question, answer) in questions.zip(answers) { show(question, answer) }
    /// ```
    @inlinable public func zip<Other: AsyncSequence & Sendable, each More: Sendable>(
        _ other: Other,
        _ more: repeat any AsyncSequence<each More, Failure> & Sendable
    ) -> AsyncZipSequence<(Element, Other.Element, repeat each More), Failure>
    where Other.Element: Sendable, Other.Failure == Failure {
        AsyncZipSequence(tupleInputs(other, repeat each more))
    }
}

/// Pairs the elements of `first`, `second` and any `more`, position by position; see
/// `AsyncSequence.zip(_:_:)` for when it emits, finishes and fails.
///
/// ```swift
/// for await (question, answer) in zip(questions, answers) { show(question, answer) }
/// ```
@_disfavoredOverload  // swift-async-algorithms' operator of the same name wins when both are imported
@inlinable public func zip<First: AsyncSequence & Sendable, Second: AsyncSequence & Sendable, each More: Sendable>(
    _ first: First,
    _ second: Second,
    _ more: repeat any AsyncSequence<each More, First.Failure> & Sendable
) -> AsyncZipSequence<(First.Element, Second.Element, repeat each More), First.Failure>
where First.Element: Sendable, Second.Element: Sendable, Second.Failure == First.Failure {
    first.zip(second, repeat each more)
}

/// Tuples of the elements of several sequences, position by position. Made by `zip(_:_:)`.
public struct AsyncZipSequence<Element: Sendable, Failure: Error>: AsyncSequence, Sendable, DrivenOperator {
    /// Takes the tuples; `nil` once no further tuple is possible or the task was cancelled,
    /// and throws the first failure of any input.
    public typealias Iterator = AsyncOperatorIterator<Self, Element, Failure>
    @usableFromInline typealias Machine = ZipStateMachine<any Sendable>

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
