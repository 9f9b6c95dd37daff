/// The bounds of the control server; every parameter has a default that suits most buses.
public struct ControlLimits: Sendable, Hashable {
    /// The longest request line in bytes; a longer one gets a `line-too-long` error and is
    /// discarded. Default: 1 MiB.
    public var maximumLineLength: Int
    /// How many connections are served at once; one more gets `too-many-clients` and is
    /// closed. Default: 256.
    public var maximumClients: Int
    /// How many bytes may wait for a watcher that does not read before it is dropped (with a
    /// `too-slow` error, counted in the statistics). Default: 4 MiB.
    public var watcherBufferBytes: Int
    /// How many actions may wait for a watcher's task before it is dropped. Default: 8192.
    public var watcherBufferActions: Int
    /// Users besides the bus's own whose connections are served; any other user's connection
    /// gets `permission-denied` and is closed (the peer's user comes from `SO_PEERCRED`).
    /// Default: none.
    public var allowedUserIDs: Set<UInt32> = []
    /// How long a connection may go without a request before it is closed; watchers and
    /// connections with replies pending are never idle. Default: 300 seconds.
    public var idleTimeout: Duration = .seconds(300)

    /// Creates limits; each parameter defaults as documented on its property.
    public init(
        maximumLineLength: Int = 1 << 20,
        maximumClients: Int = 256,
        watcherBufferBytes: Int = 4 << 20,
        watcherBufferActions: Int = 8192
    ) {
        precondition(maximumLineLength > 0 && maximumClients > 0 && watcherBufferBytes > 0 && watcherBufferActions > 0,
                     "control limits must be positive")
        self.maximumLineLength = maximumLineLength
        self.maximumClients = maximumClients
        self.watcherBufferBytes = watcherBufferBytes
        self.watcherBufferActions = watcherBufferActions
    }

    /// Bytes read ahead of the request being handled, for clients that pipeline.
    static let readAhead = 64 << 10
    /// Replies waiting for a client beyond which its further requests wait.
    static let replyHighWater = 1 << 20
}
