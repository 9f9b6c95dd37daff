/// The pure state of `flatMap(maxConcurrent:)`: how many inner sequences run and what has
/// ended.
///
/// The outer sequence is read only while fewer than `maxConcurrent` inner sequences run; the
/// whole finishes once the outer and every inner sequence have finished.
struct FlatMapStateMachine: Sendable, Equatable {
    /// What the operator does after an end.
    enum Action: Equatable {
        case none
        case finish
        case fail
    }

    let maxConcurrent: Int
    private(set) var running = 0
    private var outerFinished = false
    private(set) var ended = false

    init(maxConcurrent: Int) {
        self.maxConcurrent = maxConcurrent
    }

    /// Whether another inner sequence may start (or the operator has ended, so nobody waits).
    var mayStartInner: Bool { ended || running < maxConcurrent }

    mutating func innerStarted() {
        running += 1
    }

    mutating func innerFinished() -> Action {
        guard !ended else { return .none }
        running -= 1
        return outerFinished && running == 0 ? end() : .none
    }

    mutating func innerFailed() -> Action {
        guard !ended else { return .none }
        ended = true
        return .fail
    }

    mutating func outerFinished(failed: Bool) -> Action {
        guard !ended else { return .none }
        if failed {
            ended = true
            return .fail
        }
        outerFinished = true
        return running == 0 ? end() : .none
    }

    private mutating func end() -> Action {
        ended = true
        return .finish
    }
}
