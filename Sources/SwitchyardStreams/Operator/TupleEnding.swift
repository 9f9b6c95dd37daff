/// The end rules `combineLatest` and `zip` share, for their state machines: once the operator
/// has ended nothing more happens; the first failure of an input fails it; an input's finish
/// finishes it once no further tuple is possible (which each machine decides).
@usableFromInline protocol TupleEnding {
    associatedtype Action: TupleEndAction
    /// The operator finished or failed; every later event is ignored.
    var ended: Bool { get set }
    /// Records that `input` finished and says whether no further tuple is possible.
    mutating func recordFinish(of input: Int) -> Bool
}

/// The actions of a ``TupleEnding`` machine that its end rules return (enum cases satisfy
/// them).
@usableFromInline protocol TupleEndAction {
    static var none: Self { get }
    static var finish: Self { get }
    static var fail: Self { get }
}

extension TupleEnding {
    @inlinable mutating func inputFinished(_ input: Int) -> Action {
        guard !ended, recordFinish(of: input) else { return .none }
        ended = true
        return .finish
    }

    @inlinable mutating func inputFailed() -> Action {
        guard !ended else { return .none }
        ended = true
        return .fail
    }
}
