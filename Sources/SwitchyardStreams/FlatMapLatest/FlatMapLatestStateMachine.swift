/// The pure state of `flatMapLatest`: which inner sequence is current and what has ended.
///
/// Every outer element starts a new generation. Only the current generation's inner sequence
/// may emit, finish or fail the whole; anything a replaced inner sequence does is ignored, so
/// none of its late values can leak even before its cancellation has taken effect.
@usableFromInline struct FlatMapLatestStateMachine: OuterInnerMachine, Equatable {
    /// What the operator does after an end.
    @usableFromInline typealias Action = OperatorEndAction

    @usableFromInline var generation: UInt64 = 0
    /// The task iterating the current inner sequence, once known.
    @usableFromInline var innerTask: UInt64?
    @usableFromInline var innerRunning = false
    @usableFromInline var outerFinished = false
    @usableFromInline var ended = false

    @inlinable init() {}

    /// An outer element arrived: its inner sequence becomes current.
    /// - Returns: The new generation, and the task of the replaced inner sequence to cancel.
    @inlinable mutating func outerReceived() -> (generation: UInt64, replaced: UInt64?) {
        generation += 1
        defer { innerTask = nil }
        innerRunning = true
        return (generation, innerTask)
    }

    /// Records the task that iterates `generation`'s inner sequence.
    /// - Returns: `false` when that generation was already replaced, so the task is cancelled.
    @inlinable mutating func innerStarted(task: UInt64, generation: UInt64) -> Bool {
        guard isCurrent(generation) else { return false }
        if innerRunning { innerTask = task }
        return true
    }

    /// Whether `generation`'s inner sequence may still emit.
    @inlinable func isCurrent(_ generation: UInt64) -> Bool {
        !ended && generation == self.generation
    }

    @inlinable mutating func innerFinished(generation: UInt64) -> Action {
        guard isCurrent(generation) else { return .none }
        innerRunning = false
        innerTask = nil
        return outerFinished ? end() : .none
    }

    @inlinable mutating func innerFailed(generation: UInt64) -> Action {
        guard isCurrent(generation) else { return .none }
        ended = true
        return .fail
    }

    /// Whether no inner sequence runs, so the outer one finishing finishes the whole.
    @inlinable var innersIdle: Bool { !innerRunning }
}
