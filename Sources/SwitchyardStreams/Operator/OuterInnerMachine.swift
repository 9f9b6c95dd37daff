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

extension OperatorDriver where Machine: OuterInnerMachine {
    /// Reads the outer sequence `base` from the consumer's first `next` on (subscribing now):
    /// maps each element to an inner sequence and hands it to `start`, which runs it and says
    /// whether to read on; then tells the machine how the outer sequence ended.
    @inlinable func readOuter<Base: AsyncSequence & Sendable, Inner: Sendable>(
        _ base: Base,
        transform: @escaping @Sendable (Base.Element) -> Inner,
        start: @escaping @Sendable (Inner) async -> Bool
    ) where Base.Failure == Failure {
        read(base) { iterator in
            let end = await drain(&iterator) { element in await start(transform(element)) }
            self.inputEnded(end) { machine, failed in machine.outerFinished(failed: failed) }
        }
    }
}
