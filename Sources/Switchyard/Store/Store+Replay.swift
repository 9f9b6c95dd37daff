extension Store {
    /// Replays recorded actions: dispatches each in turn, waiting until it is reduced before the
    /// next, and returns the state after each one, in order — for golden tests of reducers
    /// ("these recorded actions must lead to these states").
    ///
    /// Middleware runs as for any dispatch; an action it emits may be reduced before the next
    /// recorded one, and then shows in the states that follow. Returns early, with the states
    /// so far, when the task is cancelled.
    public nonisolated func replay<S: Sequence>(_ actions: S) async -> [State] where S.Element == Action {
        var states: [State] = []
        for action in actions {
            if Task.isCancelled { break }
            await dispatch(action)
            states.append(currentState)
        }
        return states
    }
}
