/// The pure state of `combineLatest`: the latest value of every input and which inputs run.
///
/// Emits only once every input has a value; an input that finishes without one finishes the
/// whole operator, since no combination can ever be complete.
@usableFromInline struct CombineLatestStateMachine<Value: Sendable>: Sendable {
    /// What the operator does after an event.
    @usableFromInline enum Action: Equatable {
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

    @inlinable mutating func inputFinished(_ input: Int) -> Action {
        guard !ended else { return .none }
        running -= 1
        guard latest[input] == nil || running == 0 else { return .none }
        ended = true
        return .finish
    }

    @inlinable mutating func inputFailed() -> Action {
        guard !ended else { return .none }
        ended = true
        return .fail
    }
}

extension CombineLatestStateMachine: TupleStateMachine where Value == any Sendable {
    /// An input never waits for the others: only its latest value is kept.
    @inlinable static var queuesInputs: Bool { false }

    @inlinable func isFull(_ input: Int) -> Bool { false }

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
