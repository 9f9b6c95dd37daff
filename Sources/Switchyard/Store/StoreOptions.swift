/// Tuning for a ``Store``; every parameter has a default that suits most programs.
public struct StoreOptions: Sendable {
    /// How many actions may wait to be reduced. `send` returns `false` and `dispatch` waits when
    /// the inbox is full, so memory stays bounded however fast actions arrive. Default: 4096.
    public var inboxCapacity: Int
    /// Called, on the middleware's task, when a throwing middleware throws; the middleware
    /// goes on with the next action. Default: does nothing (the failure is still counted in
    /// ``StoreStatistics/middlewareFailures``).
    public var onMiddlewareError: @Sendable (any Error) -> Void

    /// Creates options; each parameter defaults as documented on its property.
    public init(inboxCapacity: Int = 4096, onMiddlewareError: @escaping @Sendable (any Error) -> Void = { _ in }) {
        precondition(inboxCapacity > 0, "inboxCapacity must be positive")
        self.inboxCapacity = inboxCapacity
        self.onMiddlewareError = onMiddlewareError
    }
}

/// Counters of what a ``Store`` did, readable from any task.
public struct StoreStatistics: Sendable, Hashable {
    /// Actions reduced so far.
    public var reduced: UInt64
    /// `send` calls refused because the inbox was full or the store closed.
    public var rejected: UInt64
    /// Actions waiting in the inbox right now.
    public var queued: Int
    /// Actions a middleware never saw because it fell behind by more than its buffer.
    public var middlewareDrops: Int
    /// Errors thrown by middleware.
    public var middlewareFailures: UInt64
}
