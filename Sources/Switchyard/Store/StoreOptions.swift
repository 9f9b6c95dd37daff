#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Tuning for a ``Store``; every parameter has a default that suits most programs.
public struct StoreOptions: Sendable {
    /// How many actions may wait to be reduced. `send` returns `false` and `dispatch` waits when
    /// the inbox is full, so memory stays bounded however fast actions arrive. Default: 4096.
    public var inboxCapacity: Int
    /// Called, on the effect's task, when a middleware's effect throws; the middleware goes on
    /// with later actions. Default: does nothing (the failure is still counted in
    /// ``StoreStatistics/middlewareFailures``).
    public var onMiddlewareError: @Sendable (any Error) -> Void
    /// Receives the store's diagnostics, one line each: a subscriber or middleware that holds
    /// the store up or starts dropping (once per episode). Default: writes the line to stderr.
    public var log: @Sendable (String) -> Void

    /// Creates options; each parameter defaults as documented on its property.
    public init(
        inboxCapacity: Int = 4096,
        onMiddlewareError: @escaping @Sendable (any Error) -> Void = { _ in },
        log: @escaping @Sendable (String) -> Void = StoreOptions.standardError
    ) {
        precondition(inboxCapacity > 0, "inboxCapacity must be positive")
        self.inboxCapacity = inboxCapacity
        self.onMiddlewareError = onMiddlewareError
        self.log = log
    }

    /// Writes `line` and a newline to the standard error, in one write.
    public static let standardError: @Sendable (String) -> Void = { line in
        var text = line + "\n"
        text.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
    }
}

/// Counters of what a ``Store`` did, readable from any task.
public struct StoreStatistics: Sendable, Hashable {
    /// Actions reduced so far.
    public var reduced: UInt64
    /// `send` calls refused because the inbox was full or paused, or the store closed.
    public var rejected: UInt64
    /// Actions waiting in the inbox right now.
    public var queued: Int
    /// Effects a middleware discarded because it chose a dropping overflow policy and fell
    /// behind by more than its buffer (always 0 with the default `.suspendProducer`).
    public var middlewareDrops: Int
    /// Errors thrown by middleware effects.
    public var middlewareFailures: UInt64
    /// Effects started so far.
    public var effectsStarted: UInt64
    /// Effects whose work has started and not yet ended (cancelled ones until they return).
    public var effectsInFlight: Int
    /// Effects cancelled by `.latest` or ``Effect/cancel(id:)``, running or waiting.
    public var effectsCancelled: UInt64
    /// `.leading` effects ignored because their group was busy.
    public var effectsIgnored: UInt64
    /// Actions emitted by effects after they were cancelled, discarded by request.
    public var effectOutputsDiscarded: UInt64
    /// Each current `actions` subscriber: what it buffers, dropped, and whether it holds the
    /// store up.
    public var subscribers: [ActionSubscriberStatistics]
}
