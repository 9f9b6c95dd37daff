import Switchyard

/// An action as it was recorded: the action and when, counted from the recording's start.
public struct RecordedAction<Action: Sendable>: Sendable {
    /// The action.
    public var action: Action
    /// How long after the recording's start it came.
    public var offset: Duration

    public init(_ action: Action, at offset: Duration) {
        self.action = action
        self.offset = offset
    }
}

extension RecordedAction: Equatable where Action: Equatable {}

extension Store {
    /// Replays recorded actions at their recorded pace on a manual clock: before each action
    /// the clock is advanced to the instant it came (counted from the clock's instant when this
    /// is called; never backwards, so an offset earlier than the one before dispatches at
    /// once), waking every timer due by then, and the action is dispatched and reduced before
    /// the next. Returns the state after each action.
    ///
    /// Time-based middleware (debounce, throttle, timeouts on the same clock) sees the recorded
    /// pace, and the test never sleeps.
    public nonisolated func replay(_ recorded: [RecordedAction<Action>], advancing clock: ManualClock) async -> [State] {
        let start = clock.now
        var states: [State] = []
        for entry in recorded {
            if Task.isCancelled { break }
            let due = start.advanced(by: entry.offset)
            if due > clock.now { clock.advance(to: due) }
            await dispatch(entry.action)
            states.append(currentState)
        }
        return states
    }
}
