/// What a tuple-building operator (`combineLatest`, `zip`) does after one of its inputs
/// produced an element or ended.
@usableFromInline enum TupleStep {
    case none
    /// Emit the tuple of this row (one value per input, in input order).
    case emit([(any Sendable)?])
    /// Emit the tuple of this row, then finish: it was the last possible one.
    case emitThenFinish([(any Sendable)?])
    case finish
    case fail
}

/// The state machine of a tuple-building operator, as ``TupleInputs`` drives it.
@usableFromInline protocol TupleStateMachine: Sendable {
    /// Whether an input may have to wait for the others after an element (``isFull(_:)``) or
    /// before its failure (``isPaired(_:)``); `false` spares each element those questions.
    static var queuesInputs: Bool { get }
    /// Whether `input` has queued as much as it may, so it waits until ``hasRoom(_:)``.
    func isFull(_ input: Int) -> Bool
    /// Whether a full `input` may read again.
    func hasRoom(_ input: Int) -> Bool
    /// Whether what `input` produced has been used, so its failure may end the operator.
    func isPaired(_ input: Int) -> Bool
    mutating func tupleStep(received value: any Sendable, from input: Int) -> TupleStep
    mutating func tupleStep(ended input: Int, failed: Bool) -> TupleStep
}

/// The inputs of a tuple-building operator with their element types erased, so inputs of
/// different types fit in one array, and how to assemble the tuple from one value of each.
@usableFromInline struct TupleInputs<Element: Sendable, Failure: Error>: Sendable {
    @usableFromInline let inputs: [OperatorInput<any Sendable, Failure>]
    @usableFromInline let assemble: @Sendable ([(any Sendable)?]) -> Element

    @inlinable init(inputs: [OperatorInput<any Sendable, Failure>], assemble: @escaping @Sendable ([(any Sendable)?]) -> Element) {
        self.inputs = inputs
        self.assemble = assemble
    }

    @inlinable var count: Int { inputs.count }

    /// Subscribes to every input at once (makes its iterator) and starts, per input, a task
    /// that reads it from the consumer's first `next` on and steps `machine`.
    ///
    /// A task reads only while the output has room and its input is not full, so it suspends
    /// (and sees cancellation) however fast its input is; a failure waits until the input's
    /// earlier elements are used, so it arrives at its position whatever the tasks' timing.
    @inlinable func start<Machine: TupleStateMachine>(_ machine: Machine) -> OperatorDriver<Machine, Element, Failure> {
        let driver = OperatorDriver<Machine, Element, Failure>(machine: machine)
        for (index, input) in inputs.enumerated() {
            Self.read(input.subscribe(), index: index, into: driver, assemble: assemble)
        }
        return driver
    }

    @inlinable static func read<Machine: TupleStateMachine>(
        _ run: sending @escaping OperatorInput<any Sendable, Failure>.Run,
        index: Int,
        into driver: OperatorDriver<Machine, Element, Failure>,
        assemble: @escaping @Sendable ([(any Sendable)?]) -> Element
    ) {
        driver.spawnAfterStart {
            let end = await run { value in
                let running = await driver.updateThenWaitForRoom { machine, output in
                    apply(machine.tupleStep(received: value, from: index), to: &output, failure: nil, assemble: assemble)
                }
                guard running, Machine.queuesInputs else { return running }
                guard driver.update({ machine, _ in machine.isFull(index) }) else { return true }
                return await driver.wait { $0.hasRoom(index) }
            }
            if case .failure = end, Machine.queuesInputs {
                guard await driver.wait(until: { $0.isPaired(index) }) else { return }
            }
            driver.update { machine, output in
                switch end {
                case .success:
                    apply(machine.tupleStep(ended: index, failed: false), to: &output, failure: nil, assemble: assemble)
                case .failure(let failure):
                    apply(machine.tupleStep(ended: index, failed: true), to: &output, failure: failure, assemble: assemble)
                }
            }
        }
    }

    @inlinable static func apply(
        _ step: TupleStep,
        to output: inout OperatorOutput<Element, Failure>,
        failure: Failure?,
        assemble: ([(any Sendable)?]) -> Element
    ) {
        switch step {
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
}

extension AsyncSequence where Self: Sendable, Element: Sendable {
    /// This sequence, `other` and `more` as the erased inputs of a tuple-building operator
    /// whose tuples hold one element of each, in that order.
    @inlinable func tupleInputs<Other: AsyncSequence & Sendable, each More: Sendable>(
        _ other: Other,
        _ more: repeat any AsyncSequence<each More, Failure> & Sendable
    ) -> TupleInputs<(Element, Other.Element, repeat each More), Failure>
    where Other.Element: Sendable, Other.Failure == Failure {
        var inputs = [OperatorInput<any Sendable, Failure>(erasing: self), OperatorInput(erasing: other)]
        for sequence in repeat each more { inputs.append(OperatorInput(erasing: sequence)) }
        return TupleInputs(inputs: inputs) { values in
            var index = 2
            return (
                unerase(values[0], as: Element.self),
                unerase(values[1], as: Other.Element.self),
                repeat unerase(values, &index, as: (each More).self)
            )
        }
    }
}
