extension AsyncSequence where Self: Sendable, Element: Sendable {
    /// Pairs the elements of this sequence with those of one or more others, position by
    /// position: the first of each, then the second of each, and so on.
    ///
    /// - **Emits** a tuple as soon as every input has produced its next element.
    /// - **Finishes** as soon as an input has finished and all its elements were paired (no
    ///   further tuple is possible); the other inputs are cancelled.
    /// - **Fails** with the first failure of any input, after the tuples emitted before it;
    ///   the other inputs are cancelled.
    /// - **Buffers** every unpaired element, without limit (as Combine's `zip` does), and up
    ///   to 64 tuples the consumer has not taken. An input far ahead of the others is still
    ///   read, so it never holds back a shared upstream (one `viewDidLoad` zipped with many
    ///   taps keeps every other consumer of the taps running); memory grows with the number
    ///   of unpaired elements, so zip inputs that advance together.
    ///
    /// Making the iterator subscribes to every input (makes its iterator); each input is then
    /// read, from the first `next` on, by one task the operator owns and cancels when the
    /// consumer's task is cancelled or its iterator is released. All inputs share this
    /// sequence's failure type.
    ///
    /// ```swift
    /// for await (question, answer) in questions.zip(answers) { show(question, answer) }
    /// ```
    @inlinable public func zip<Other: AsyncSequence & Sendable, each More: Sendable>(
        _ other: Other,
        _ more: repeat any AsyncSequence<each More, Failure> & Sendable
    ) -> AsyncZipSequence<(Element, Other.Element, repeat each More), Failure>
    where Other.Element: Sendable, Other.Failure == Failure {
        var inputs = [OperatorInput<any Sendable, Failure>(erasing: self), OperatorInput(erasing: other)]
        for sequence in repeat each more { inputs.append(OperatorInput(erasing: sequence)) }
        return AsyncZipSequence(inputs: inputs) { values in
            var index = 2
            return (
                unerase(values[0], as: Element.self),
                unerase(values[1], as: Other.Element.self),
                repeat unerase(values, &index, as: (each More).self)
            )
        }
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
public struct AsyncZipSequence<Element: Sendable, Failure: Error>: AsyncSequence, Sendable {
    @usableFromInline typealias Machine = ZipStateMachine<any Sendable>
    @usableFromInline typealias Driver = OperatorDriver<Machine, Element, Failure>

    @usableFromInline let inputs: [OperatorInput<any Sendable, Failure>]
    @usableFromInline let assemble: @Sendable ([(any Sendable)?]) -> Element

    @inlinable init(inputs: [OperatorInput<any Sendable, Failure>], assemble: @escaping @Sendable ([(any Sendable)?]) -> Element) {
        self.inputs = inputs
        self.assemble = assemble
    }

    /// Makes an iterator, subscribing to every input at once (by making its iterator); the
    /// inputs are read from the first `next` on.
    @inlinable public func makeAsyncIterator() -> Iterator {
        let driver = Driver(machine: Machine(inputs: inputs.count))
        for (index, input) in inputs.enumerated() {
            Self.start(input.subscribe(), index: index, into: driver, assemble: assemble)
        }
        return Iterator(handle: OperatorDriverHandle(driver))
    }

    @inlinable static func start(
        _ run: sending @escaping OperatorInput<any Sendable, Failure>.Run,
        index: Int,
        into driver: Driver,
        assemble: @escaping @Sendable ([(any Sendable)?]) -> Element
    ) {
        driver.spawn {
            guard await driver.waitForStart() else { return }
            let end = await run { value in
                let running = await driver.updateThenWaitForRoom { machine, output in
                    apply(machine.received(value, from: index), to: &output, failure: nil, assemble: assemble)
                }
                guard running else { return false }
                guard driver.update({ machine, _ in machine.isFull(index) }) else { return true }
                return await driver.wait { !$0.isFull(index) }
            }
            driver.update { machine, output in
                switch end {
                case .success:
                    apply(machine.inputFinished(index), to: &output, failure: nil, assemble: assemble)
                case .failure(let failure):
                    apply(machine.inputFailed(), to: &output, failure: failure, assemble: assemble)
                }
            }
        }
    }

    @inlinable static func apply(
        _ action: Machine.Action,
        to output: inout OperatorOutput<Element, Failure>,
        failure: Failure?,
        assemble: ([(any Sendable)?]) -> Element
    ) {
        switch action {
        case .none:
            break
        case .emit(let row):
            output.emit(assemble(row))
        case .emitThenFinish(let row):
            output.emit(assemble(row))
            output.finish()
        case .finish:
            output.finish()
        case .fail:
            if let failure { output.fail(failure) }
        }
    }

    /// Takes the tuples; not shareable between tasks.
    public struct Iterator: AsyncIteratorProtocol {
        @usableFromInline let handle: OperatorDriverHandle<Machine, Element, Failure>

        @inlinable init(handle: OperatorDriverHandle<Machine, Element, Failure>) {
            self.handle = handle
        }

        /// The next tuple; `nil` once no further tuple is possible or the task was cancelled.
        /// - Throws: The first failure of any input.
        @inlinable public mutating func next() async throws(Failure) -> Element? {
            try await handle.driver.next(isolation: nil)
        }

        /// The next tuple; `nil` once no further tuple is possible or the task was cancelled.
        /// - Throws: The first failure of any input.
        @inlinable public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
            try await handle.driver.next(isolation: actor)
        }
    }
}

@available(*, unavailable)
extension AsyncZipSequence.Iterator: Sendable {}
