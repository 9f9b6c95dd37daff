/// The pure state of `combineLatest`: the latest value of every input and which inputs run.
///
/// Emits only once every input has a value; an input that finishes without one finishes the
/// whole operator, since no combination can ever be complete.
@usableFromInline struct CombineLatestStateMachine<Value: Sendable>: Sendable, TupleEnding {
    /// What the operator does after an event.
    @usableFromInline enum Action: Equatable, TupleEndAction {
        case none
        /// Emit the combination of ``latest``.
        case emit
        case finish
        case fail
    }

    /// The latest value of each input, `nil` until it has produced one.
    @usableFromInline var latest: [Value?]
    @usableFromInline var missing: Int
    @usableFromInline var running: Int
    @usableFromInline var ended = false

    @inlinable init(inputs: Int) {
        latest = Array(repeating: nil, count: inputs)
        missing = inputs
        running = inputs
    }

    @inlinable mutating func received(_ value: Value, from input: Int) -> Action {
        guard !ended else { return .none }
        if latest[input] == nil { missing -= 1 }
        latest[input] = value
        return missing == 0 ? .emit : .none
    }

    /// An input that finishes without a value leaves no combination complete; otherwise the
    /// operator runs until every input finished.
    @inlinable mutating func recordFinish(of input: Int) -> Bool {
        running -= 1
        return latest[input] == nil || running == 0
    }
}

extension CombineLatestStateMachine: TupleStateMachine where Value == any Sendable {
    /// An input never waits for the others: only its latest value is kept.
    @inlinable static var queuesInputs: Bool { false }

    @inlinable func isFull(_ input: Int) -> Bool { false }

    @inlinable func hasRoom(_ input: Int) -> Bool { true }

    @inlinable func isPaired(_ input: Int) -> Bool { true }

    @inlinable mutating func tupleStep(received value: any Sendable, from input: Int) -> TupleStep {
        received(value, from: input) == .emit ? .emit(latest) : .none
    }

    @inlinable mutating func tupleStep(ended input: Int, failed: Bool) -> TupleStep {
        switch failed ? inputFailed() : inputFinished(input) {
        case .none, .emit: .none
        case .finish: .finish
        case .fail: .fail
        }
    }
}
