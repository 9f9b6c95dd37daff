/// The state machine of an operator that maps an outer sequence to inner ones (`flatMap`,
/// `flatMapLatest`): the whole ends once the outer sequence and its inner ones have, or at the
/// first failure.
@usableFromInline protocol OuterInnerMachine: Sendable {
    var outerFinished: Bool { get set }
    var ended: Bool { get set }
    /// Whether no inner sequence runs now.
    var innersIdle: Bool { get }
}

extension OuterInnerMachine {
    /// The outer sequence ended: a failure fails the whole; a finish finishes it once no inner
    /// sequence runs (else the last inner one to end finishes it).
    @inlinable mutating func outerFinished(failed: Bool) -> OperatorEndAction {
        guard !ended else { return .none }
        if failed {
            ended = true
            return .fail
        }
        outerFinished = true
        return innersIdle ? end() : .none
    }

    @inlinable mutating func end() -> OperatorEndAction {
        ended = true
        return .finish
    }
}
