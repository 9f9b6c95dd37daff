import SwitchyardBus

/// The settings of a `nats` plugin, as read from its config entry.
public struct NATSSettings: Sendable, Hashable {
    /// The servers, tried in turn on each reconnect. Default: `nats://127.0.0.1:4222`.
    public var endpoints: [NATSEndpoint]
    /// The credentials (`user` and `password`, or `token`, usually `${ENV}` references);
    /// they override credentials written in a URL. Default: `nil`, those of the URL or none.
    public var credentials: NATSCredentials?
    /// The name this bus publishes under and recognises its own actions by. Default: `nil`,
    /// the bus's name.
    public var origin: String?
    /// The local actions published. Default: `nil`, none.
    public var publish: TypePattern?
    /// The subject patterns received, each under ``subjectPrefix``. Default: none.
    public var subscribe: [SubjectPattern]
    /// The mapping between action types and subjects. Default: prefix `switchyard`.
    public var mapping: SubjectMapping
    /// Core NATS (at most once) or JetStream (at least once). Default: ``NATSMode/core``.
    public var mode: NATSMode
    /// The stream created when absent (JetStream only). Default: see ``StreamConfiguration``.
    public var stream: StreamConfiguration
    /// The consumer's name (JetStream only). Default: `nil`, the bus's name with characters
    /// JetStream names cannot hold replaced by `_`.
    public var durable: String?
    /// Where a new consumer starts (JetStream only). Default: ``ConsumerConfiguration/DeliverPolicy/new``.
    public var deliverPolicy: ConsumerConfiguration.DeliverPolicy
    /// How long the server waits for an acknowledgement before delivering again. Default: 30 seconds.
    public var ackWait: Duration
    /// The most messages delivered to this bus and not yet acknowledged. Default: 1000.
    public var maxAckPending: Int
    /// Messages asked for per pull request. Default: 100.
    public var batch: Int
    /// The most publishes awaiting JetStream's acknowledgement. Default: 256, or
    /// ``bufferSize`` when that is smaller.
    public var publishWindow: Int
    /// The most actions a second published from the journal (JetStream with a journal), so a
    /// backlog after an outage drains without flooding the server. Default: `nil`, no limit.
    public var drainRate: Int?
    /// Actions held while disconnected (with JetStream, unacknowledged ones included).
    /// Default: 10000.
    public var bufferSize: Int
    /// Which action goes when the buffer is full. Default: ``OutboxOverflow/dropOldest``.
    public var overflow: OutboxOverflow
    /// The delay before the first reconnect attempt; it doubles per failed attempt, with
    /// jitter. Default: 0.25 seconds.
    public var reconnectDelay: Duration
    /// The longest delay between reconnect attempts. Default: 10 seconds.
    public var maxReconnectDelay: Duration
    /// How long the TCP connect and the handshake may take. Default: 5 seconds.
    public var connectTimeout: Duration
    /// How often a quiet server is pinged; two unanswered pings end the connection.
    /// Default: 30 seconds.
    public var pingInterval: Duration
    /// How long a JetStream API request or publish waits for its reply. Default: 5 seconds.
    public var requestTimeout: Duration

    /// The keys only JetStream mode reads.
    static let jetStreamKeys = ["stream", "durable", "deliver", "ackWait", "maxAckPending", "batch", "publishWindow", "drainRate"]

    /// Reads every key of a `nats` entry, recording each problem in `settings`.
    init(reading settings: PluginSettings) {
        endpoints = Self.endpoints(settings)
        credentials = Self.credentials(settings)
        origin = settings.string("origin")
        if let origin, origin.isEmpty || origin.contains(where: { $0.isNewline }) {
            settings.problem("origin", "expected a non-empty name on one line")
        }
        publish = settings.contains("publish") ? settings.typePattern("publish", default: .all) : nil
        let prefix = settings.string("subjectPrefix", default: SubjectMapping.defaultPrefix)
        do {
            mapping = try SubjectMapping(prefix: prefix)
        } catch {
            settings.problem("subjectPrefix", error.description)
            mapping = .standard
        }
        subscribe = Self.subscriptions(settings, mapping: mapping)
        if publish == nil, subscribe.isEmpty {
            settings.problem("", "nothing to bridge: set \"publish\" (a type pattern), \"subscribe\" (subject patterns) or both")
        }
        mode = settings.oneOf("mode", default: NATSMode.core)
        if mode == .core {
            for key in Self.jetStreamKeys where settings.contains(key) {
                _ = settings.json(key)
                settings.problem(key, "only applies with \"mode\": \"jetstream\"")
            }
        }
        stream = Self.stream(settings, mapping: mapping)
        durable = settings.string("durable")
        if let durable, let problem = ConsumerConfiguration.problem(withName: durable) { settings.problem("durable", problem) }
        deliverPolicy = settings.oneOf("deliver", default: ConsumerConfiguration.DeliverPolicy.new)
        ackWait = settings.seconds("ackWait", default: .seconds(30))
        maxAckPending = settings.int("maxAckPending", default: 1000, range: 1...1_000_000)
        batch = settings.int("batch", default: 100, range: 1...10_000)
        bufferSize = settings.int("bufferSize", default: 10_000, range: 1...10_000_000)
        publishWindow = settings.int("publishWindow", default: min(256, bufferSize), range: 1...100_000)
        if publishWindow > bufferSize { settings.problem("publishWindow", "must not exceed bufferSize (\(bufferSize))") }
        overflow = settings.oneOf("overflow", default: OutboxOverflow.dropOldest)
        drainRate = settings.int("drainRate", range: 1...10_000_000)
        reconnectDelay = settings.seconds("reconnectDelay", default: .milliseconds(250), range: 0.001...3600)
        maxReconnectDelay = settings.seconds("maxReconnectDelay", default: .seconds(10), range: 0.001...3600)
        if maxReconnectDelay < reconnectDelay { settings.problem("maxReconnectDelay", "must not be shorter than reconnectDelay") }
        connectTimeout = settings.seconds("connectTimeout", default: .seconds(5), range: 0.01...600)
        pingInterval = settings.seconds("pingInterval", default: .seconds(30), range: 0.01...86_400)
        requestTimeout = settings.seconds("requestTimeout", default: .seconds(5), range: 0.01...600)
    }

    private static func endpoints(_ settings: PluginSettings) -> [NATSEndpoint] {
        var texts: [String] = []
        switch settings.json("url") {
        case nil:
            texts = ["nats://127.0.0.1:4222"]
        case .string(let text)?:
            texts = text.split(separator: ",").map(String.init)
        case .array?:
            texts = settings.strings("url")
        case let other?:
            settings.problem("url", "expected a nats:// URL or an array of them, got \(other.kindDescription)")
            return []
        }
        var endpoints: [NATSEndpoint] = []
        for text in texts {
            do {
                endpoints.append(try NATSEndpoint(parsing: text))
            } catch {
                settings.problem("url", error.description)
            }
        }
        if endpoints.isEmpty, texts.isEmpty { settings.problem("url", "expected at least one nats:// URL") }
        return endpoints
    }

    private static func credentials(_ settings: PluginSettings) -> NATSCredentials? {
        let user = settings.string("user")
        let password = settings.string("password")
        let token = settings.string("token")
        switch (user, password, token) {
        case (nil, nil, nil):
            return nil
        case (let user?, let password?, nil):
            if user.isEmpty { settings.problem("user", "expected a non-empty user name") }
            return .user(user, password: password)
        case (nil, nil, let token?):
            if token.isEmpty { settings.problem("token", "expected a non-empty token (is its variable set?)") }
            return .token(token)
        case (_, _, _?):
            settings.problem("token", "use either \"token\" or \"user\" and \"password\", not both")
        case (_?, nil, nil):
            settings.problem("", "\"user\" needs a \"password\"")
        case (nil, _?, nil):
            settings.problem("", "\"password\" needs a \"user\"")
        }
        return nil
    }

    private static func subscriptions(_ settings: PluginSettings, mapping: SubjectMapping) -> [SubjectPattern] {
        let texts: [String]
        switch settings.json("subscribe") {
        case nil: return []
        case .string(let text)?: texts = [text]
        case .array?: texts = settings.strings("subscribe")
        case let other?:
            settings.problem("subscribe", "expected a subject pattern or an array of them, got \(other.kindDescription)")
            return []
        }
        var patterns: [SubjectPattern] = []
        for text in texts {
            do {
                let pattern = try SubjectPattern(text)
                guard mapping.contains(pattern) else {
                    settings.problem("subscribe", "\"\(text)\" is outside the subject prefix \"\(mapping.prefix)\"; did you mean \"\(mapping.prefix).\(text)\"?")
                    continue
                }
                patterns.append(pattern)
            } catch {
                settings.problem("subscribe", error.description)
            }
        }
        return patterns
    }

    private static func stream(_ settings: PluginSettings, mapping: SubjectMapping) -> StreamConfiguration {
        var stream = StreamConfiguration(name: StreamConfiguration.defaultName(prefix: mapping.prefix), subjects: [mapping.prefix + ".>"])
        guard let object = settings.object("stream") else { return stream }
        stream.name = object.string("name", default: stream.name)
        if let problem = ConsumerConfiguration.problem(withName: stream.name) { object.problem("name", problem) }
        if object.contains("subjects") {
            stream.subjects = object.strings("subjects")
            for subject in stream.subjects {
                if let problem = SubjectPattern.problem(with: subject, wildcards: true) { object.problem("subjects", problem) }
            }
            if stream.subjects.isEmpty { object.problem("subjects", "expected at least one subject") }
        }
        stream.retention = object.oneOf("retention", default: stream.retention)
        stream.storage = object.oneOf("storage", default: stream.storage)
        stream.maxAge = object.seconds("maxAge")
        stream.maxMessages = object.int("maxMessages", range: 1...Int.max)
        stream.maxBytes = object.int("maxBytes", range: 1...Int.max)
        stream.duplicateWindow = object.seconds("duplicateWindow", default: stream.duplicateWindow)
        stream.replicas = object.int("replicas", default: stream.replicas, range: 1...5)
        return stream
    }

    // MARK: What the bridge is built from

    /// The credentials to present to `endpoint`: the settings', else the URL's.
    func credentials(for endpoint: NATSEndpoint) -> NATSCredentials? {
        credentials ?? endpoint.credentials
    }

    /// The consumer for a bus named `busName`; `nil` in core mode or without subscriptions.
    func consumer(busName: String) -> ConsumerConfiguration? {
        guard mode == .jetstream, !subscribe.isEmpty else { return nil }
        return ConsumerConfiguration(
            durable: durable ?? ConsumerConfiguration.sanitized(busName),
            deliverPolicy: deliverPolicy,
            ackWait: ackWait,
            maxAckPending: maxAckPending,
            filterSubject: subscribe.count == 1 ? subscribe[0].description : nil
        )
    }

    /// The state machine's configuration for a bus named `busName`.
    func machineConfiguration(busName: String) -> BridgeMachine.Configuration {
        BridgeMachine.Configuration(
            mode: mode,
            mapping: mapping,
            subscriptions: subscribe,
            published: publish.flatMap { try? SubjectPattern(mapping.subjectPattern(for: $0)) }.map { [$0] } ?? [],
            capacity: bufferSize,
            overflow: overflow,
            window: publishWindow,
            batch: batch,
            expires: .seconds(5),
            requestTimeout: requestTimeout,
            stream: mode == .jetstream ? stream : nil,
            consumer: consumer(busName: busName)
        )
    }

    /// The reconnect delays.
    var backoff: Backoff {
        Backoff(initial: reconnectDelay, maximum: maxReconnectDelay, jitter: 0.5)
    }

    /// The connection's timing.
    var timing: NATSClientMachine.Timing {
        NATSClientMachine.Timing(connectTimeout: connectTimeout, pingInterval: pingInterval, maximumPingsOut: 2)
    }
}
