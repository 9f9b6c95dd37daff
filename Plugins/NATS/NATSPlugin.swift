import SwitchyardBus

/// Bridges buses on many machines through NATS: matching local actions are published to
/// subjects (`gps/fix` → `switchyard.gps.fix`), and messages on subscribed subjects are
/// dispatched as actions with source `nats:<origin bus>`.
///
/// In `core` mode delivery is at most once. In `jetstream` mode the actions go into a
/// stream (created if absent) and each bus reads through a durable consumer, acknowledging
/// a message only after its action was reduced — and journaled — on the bus, so a bus that
/// was offline resumes where it stopped and misses nothing (at least once; redeliveries are
/// recognised by message id and dropped). On a bus with a journal, JetStream publishing
/// reads the journal after a durable cursor (store-and-forward, at `drainRate`), so no outage
/// or restart loses what the journal kept.
///
/// Every published action carries its origin bus and `Nats-Msg-Id: <origin>-<id>`; actions
/// whose origin is this bus are never dispatched, and actions the bridge dispatched are
/// never published again, so nothing loops. The plugin emits `NAME/status` (`connecting`,
/// `connected`, `disconnected`), `NAME/failed` (`kind`: `unreachable`, `authorization`,
/// `timeout`, `closed`, `stale`, `server`, `protocol`, `unsupported`, `io`, `jetstream`,
/// `oversized`, `rejected`, `refused` (a full stream, once per episode), `duplicate-id`,
/// `invalid-message`, `cursor`, `retention`, `journal`; with `message`), `NAME/overflow` and
/// `NAME/counters` (at most once a second while they change), and keeps `state.NAME`. It never fails: it reconnects with backoff and
/// jitter for as long as the bus runs.
public struct NATSPlugin: Plugin {
    /// `nats`.
    public static let kind = "nats"
    /// One line for `switchyard plugins`.
    public static let summary = "Shares actions with buses on other machines through NATS (core or JetStream)."
    /// Every setting with its type and default, for `switchyard plugins`.
    public static let settingDescriptions: [SettingDescription] = [
        SettingDescription("url", "nats:// URL or array of them", default: "\"nats://127.0.0.1:4222\"", "Servers, tried in turn on reconnect; several for failover."),
        SettingDescription("user", "string", default: "none", "User name; use ${ENV}. Needs \"password\"."),
        SettingDescription("password", "string", default: "none", "Password; use ${ENV}."),
        SettingDescription("token", "string", default: "none", "Authorization token instead of user and password; use ${ENV}."),
        SettingDescription("publish", "type pattern", default: "none", "Local actions to publish."),
        SettingDescription("subscribe", "subject pattern or array", default: "none", "Subjects to receive, under subjectPrefix (\"switchyard.gps.>\")."),
        SettingDescription("subjectPrefix", "subject", default: "\"switchyard\"", "Action type gps/fix <-> subject PREFIX.gps.fix."),
        SettingDescription("origin", "string", default: "the bus name", "The name this bus publishes under; its own actions are never taken back."),
        SettingDescription("mode", "\"core\" | \"jetstream\"", default: "\"core\"", "At most once, or at least once through a stream."),
        SettingDescription("stream", "object", default: "{\"name\": \"SWITCHYARD\", \"subjects\": [\"switchyard.>\"]}",
                           "JetStream stream created if absent: name, subjects, retention, storage, maxAge, maxMessages, maxBytes, duplicateWindow, replicas."),
        SettingDescription("durable", "string", default: "the bus name", "JetStream consumer name; a restarted bus resumes from it."),
        SettingDescription("deliver", "\"new\" | \"all\"", default: "\"new\"", "Where a new consumer starts."),
        SettingDescription("ackWait", "number of seconds", default: "30", "Redelivery after this long without acknowledgement."),
        SettingDescription("maxAckPending", "integer 1-1000000", default: "1000", "Messages delivered but not yet acknowledged."),
        SettingDescription("batch", "integer 1-10000", default: "100", "Messages per pull request."),
        SettingDescription("publishWindow", "integer 1-100000", default: "256", "JetStream publishes awaiting acknowledgement."),
        SettingDescription("drainRate", "integer 1-10000000", default: "unlimited",
                           "JetStream with a journal: the most actions a second published from the journal (a backlog after an outage drains at this rate)."),
        SettingDescription("bufferSize", "integer 1-10000000", default: "10000",
                           "Core, or JetStream without a journal: actions held while disconnected; then overflow applies (counted). JetStream with a journal publishes from the journal instead."),
        SettingDescription("overflow", "\"drop-oldest\" | \"drop-newest\"", default: "\"drop-oldest\"", "Which action goes when the buffer is full."),
        SettingDescription("reconnectDelay", "number of seconds", default: "0.25", "First reconnect delay; doubles per attempt, with jitter."),
        SettingDescription("maxReconnectDelay", "number of seconds", default: "10", "Longest reconnect delay."),
        SettingDescription("connectTimeout", "number of seconds", default: "5", "Time for the TCP connect and the handshake."),
        SettingDescription("pingInterval", "number of seconds", default: "30", "Pings to a quiet server; two unanswered end the connection."),
        SettingDescription("requestTimeout", "number of seconds", default: "5", "Wait for a JetStream API reply or publish acknowledgement."),
    ]

    /// The plugin's settings.
    public let settings: NATSSettings
    private let name: String

    /// Reads and validates the settings; throws every problem at once.
    public init(name: String, settings: PluginSettings) throws {
        self.name = name
        self.settings = NATSSettings(reading: settings)
        try settings.finish()
    }

    /// The actions matching `publish`, buffered `bufferSize` deep (oldest dropped, counted);
    /// without `publish`, only `bus/stopping`, whose stream ending tells the bridge to stop.
    public var subscription: ActionSubscription? {
        ActionSubscription(settings.publish ?? Self.stopping, bufferSize: max(settings.bufferSize, 1024), overflow: .dropOldest)
    }

    /// `state.NAME`: status, url, server, lastError, failures, dropped and counters; with
    /// `subscribe`, also `origins`, the buses heard (which needs every action: a relayed one
    /// keeps its type).
    public var slice: StateSlice? {
        let subscribes = !settings.subscribe.isEmpty
        return StateSlice(initial: NATSStatusSlice.initial(url: settings.endpoints.first?.description ?? "", subscribes: subscribes),
                          actions: subscribes ? .all : .domain(name), reduce: NATSStatusSlice.reducer(name: name, subscribes: subscribes))
    }

    /// Bridges until the bus stops the plugin; never throws, since every failure is reported
    /// and retried.
    public func run(context: PluginContext) async throws {
        await run(context: context, clock: context.clock)
    }

    private func run<C: Clock>(context: PluginContext, clock: C) async where C.Duration == Duration {
        let start = clock.now
        let bridge = NATSBridge(settings: settings, context: context, now: { start.duration(to: clock.now) })
        // Live counters for stats and /metrics; the slice's copy follows through NAME/counters.
        context.reportCounters { (bridge.counters.objectValue ?? [:]).compactMapValues { $0.intValue.map(Int64.init) } }
        await bridge.run()
    }

    private static let stopping = TypePattern("bus/stopping") ?? .all
}
