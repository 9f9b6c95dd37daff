/// The pure state of `zip`: a queue of not yet paired elements per input.
///
/// A row is emitted as soon as every queue has an element. Once an input has finished and its
/// queue is empty no further row is possible, so the whole finishes. An input reads ahead of
/// the others by at most ``queueLimit`` elements, so a never-suspending input cannot hold a
/// thread and fill memory while another input waits for one.
@usableFromInline struct ZipStateMachine<Value: Sendable>: Sendable, TupleEnding {
    /// What the operator does after an event.
    @usableFromInline enum Action: TupleEndAction {
        case none
        /// Emit this row (one element per input, in input order).
        case emit([Value])
        /// Emit this row, then finish: it was the last possible one.
        case emitThenFinish([Value])
        case finish
        case fail
    }

    /// Elements an input may have queued before it waits for the others; it reads again once
    /// half of them are paired, so the wait and the wake-up happen once per batch, not per element.
    @usableFromInline let queueLimit: Int
    @usableFromInline var queues: [OperatorRing<Value>]
    @usableFromInline var finished: [Bool]
    @usableFromInline var ended = false

    @inlinable init(inputs: Int, queueLimit: Int = 16) {
        self.queueLimit = Swift.max(1, queueLimit)
        queues = Array(repeating: OperatorRing(), count: inputs)
        finished = Array(repeating: false, count: inputs)
    }

    /// Whether `input` has queued as much as it may.
    @inlinable func isFull(_ input: Int) -> Bool {
        !ended && queues[input].count >= queueLimit
    }

    /// Whether a full `input` may read again: half its queue is paired, or the zip has ended.
    @inlinable func hasRoom(_ input: Int) -> Bool {
        ended || queues[input].count <= queueLimit / 2
    }

    /// Whether every element `input` produced has been paired (or the zip has ended): its
    /// failure takes effect only then, at its position, after the rows its elements made.
    @inlinable func isPaired(_ input: Int) -> Bool {
        ended || queues[input].isEmpty
    }

    @inlinable mutating func received(_ value: Value, from input: Int) -> Action {
        guard !ended else { return .none }
        queues[input].append(value)
        guard queues.allSatisfy({ !$0.isEmpty }) else { return .none }
        let row = queues.indices.compactMap { queues[$0].popFirst() }
        if queues.indices.contains(where: { finished[$0] && queues[$0].isEmpty }) {
            ended = true
            return .emitThenFinish(row)
        }
        return .emit(row)
    }

    /// Once a finished input's queue is empty, no further row is possible.
    @inlinable mutating func recordFinish(of input: Int) -> Bool {
        finished[input] = true
        return queues[input].isEmpty
    }
}

extension ZipStateMachine.Action: Equatable where Value: Equatable {}

extension ZipStateMachine: TupleStateMachine where Value == any Sendable {
    /// An input waits for the others once it has queued ``queueLimit`` elements, and its
    /// failure waits until its elements are paired.
    @inlinable static var queuesInputs: Bool { true }

    @inlinable mutating func tupleStep(received value: any Sendable, from input: Int) -> TupleStep {
        Self.step(received(value, from: input))
    }

    @inlinable mutating func tupleStep(ended input: Int, failed: Bool) -> TupleStep {
        Self.step(failed ? inputFailed() : inputFinished(input))
    }

    @inlinable static func step(_ action: Action) -> TupleStep {
        switch action {
        case .none: .none
        case .emit(let row): .emit(row)
        case .emitThenFinish(let row): .emitThenFinish(row)
        case .finish: .finish
        case .fail: .fail
        }
    }
}
