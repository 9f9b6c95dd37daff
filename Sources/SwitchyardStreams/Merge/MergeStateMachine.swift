/// The pure state of `merge`: how many inputs are still running.
///
/// Elements pass straight through; only the ends need a decision.
@usableFromInline struct MergeStateMachine: Sendable, Equatable {
    /// What the operator does after an input ended.
    @usableFromInline typealias Action = OperatorEndAction

    @usableFromInline var running: Int

    @inlinable init(inputs: Int) {
        running = inputs
    }

    @inlinable mutating func inputFinished() -> Action {
        guard running > 0 else { return .none }
        running -= 1
        return running == 0 ? .finish : .none
    }

    @inlinable mutating func inputFailed() -> Action {
        guard running > 0 else { return .none }
        running = 0
        return .fail
    }
}
