/// The pure state of `merge`: how many inputs are still running.
///
/// Elements pass straight through; only the ends need a decision.
struct MergeStateMachine: Sendable, Equatable {
    /// What the operator does after an input ended.
    enum Action: Equatable {
        /// Other inputs still run; keep going.
        case none
        /// The last input finished: finish the output.
        case finish
        /// An input failed: fail the output, which cancels the other inputs.
        case fail
    }

    private(set) var running: Int

    init(inputs: Int) {
        running = inputs
    }

    mutating func inputFinished() -> Action {
        guard running > 0 else { return .none }
        running -= 1
        return running == 0 ? .finish : .none
    }

    mutating func inputFailed() -> Action {
        guard running > 0 else { return .none }
        running = 0
        return .fail
    }
}
