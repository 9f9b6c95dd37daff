extension Bus {
    /// Whether the bus is serving: started, every plugin ready, not stopping. The answer comes
    /// from the bus's actor, so getting one also shows that the actor is not stuck — what a
    /// service watchdog asks before each ping. `false` before `run()` and after it returns.
    public var isServing: Bool {
        phase == .running
    }
}
