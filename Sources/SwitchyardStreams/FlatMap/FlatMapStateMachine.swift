/// The pure state of `flatMap(maxConcurrent:)`: how many inner sequences run and what has
/// ended.
///
/// The outer sequence is read only while fewer than `maxConcurrent` inner sequences run; the
/// whole finishes once the outer and every inner sequence have finished.
@usableFromInline struct FlatMapStateMachine: OuterInnerMachine, Equatable {
    /// What the operator does after an end.
    @usableFromInline typealias Action = OperatorEndAction

    @usableFromInline let maxConcurrent: Int
    @usableFromInline var running = 0
    @usableFromInline var outerFinished = false
    @usableFromInline var ended = false

    @inlinable init(maxConcurrent: Int) {
        self.maxConcurrent = maxConcurrent
    }

    /// Whether another inner sequence may start (or the operator has ended, so nobody waits).
    @inlinable var mayStartInner: Bool { ended || running < maxConcurrent }

    @inlinable mutating func innerStarted() {
        running += 1
    }

    @inlinable mutating func innerFinished() -> Action {
        guard !ended else { return .none }
        running -= 1
        return outerFinished && running == 0 ? end() : .none
    }

    @inlinable mutating func innerFailed() -> Action {
        guard !ended else { return .none }
        ended = true
        return .fail
    }

    /// Whether no inner sequence runs, so the outer one finishing finishes the whole.
    @inlinable var innersIdle: Bool { running == 0 }
}
