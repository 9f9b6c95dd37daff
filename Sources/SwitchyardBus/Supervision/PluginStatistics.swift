/// Where a plugin is in its life.
public enum PluginStatus: String, Sendable, Hashable {
    /// Constructed, not started yet.
    case pending
    /// `run` is executing.
    case running
    /// `run` ended and a restart is scheduled.
    case restarting
    /// Stopped by the bus, or `run` returned and the policy does not restart it.
    case stopped
    /// `run` failed and the policy gave up on it.
    case failed
}

/// Counters of one plugin, as `switchyard stats` shows them.
public struct PluginStatistics: Sendable, Hashable {
    /// The plugin's name.
    public var name: String
    /// The plugin's kind.
    public var kind: String
    /// Where the plugin is in its life.
    public var status: PluginStatus
    /// How often the bus restarted it.
    public var restarts: Int
    /// How often its `run` threw.
    public var failures: Int
    /// Actions it emitted that the bus reduced.
    public var emitted: UInt64
    /// Actions its current subscription dropped because it fell behind.
    public var droppedActions: Int
    /// Actions waiting in its subscription's buffer.
    public var queued: Int
    /// The last error its `run` threw, as text.
    public var lastError: String?
    /// Actions handed to its subscriptions (matching its pattern), including those it then
    /// dropped.
    public var received: UInt64 = 0
    /// Counters the plugin reports itself (``PluginContext/reportCounters(_:)``), by name.
    public var reported: [String: Int64] = [:]
}

/// Counters of a running bus.
public struct BusStatistics: Sendable, Hashable {
    /// The bus's name.
    public var name: String
    /// Time since the bus was built.
    public var uptime: Duration
    /// Actions reduced per second, over the last few seconds.
    public var actionsPerSecond: Double
    /// The store's counters.
    public var store: StoreStatistics
    /// The store's inbox capacity.
    public var inboxCapacity: Int
    /// One entry per plugin, in file order.
    public var plugins: [PluginStatistics]
    /// The control socket's counters; `nil` without a control socket.
    public var control: ControlStatistics?
    /// The journal's counters; `nil` without a journal.
    public var journal: JournalStatistics?
    /// The HTTP server's counters; `nil` when it does not run.
    public var http: HTTPStatistics? = nil
    /// Plugins that ignored cancellation past the stop timeout (when the bus stopped, or a
    /// reload stopped them) and were left running, each logged once.
    public var abandonedPlugins: Int = 0
}
