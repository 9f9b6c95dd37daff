import SwitchyardBus
import SwitchyardBusTesting
import Testing

@testable import NATSPlugin

/// Reading and validating a `nats` plugin's settings.
struct NATSSettingsTests {
    private func make(_ members: String) throws -> NATSPlugin {
        let values = try JSON(parsing: "{\(members)}").objectValue ?? [:]
        return try NATSPlugin(name: "fleet", settings: PluginSettings(values, path: "plugins[1]"))
    }

    private func problems(_ members: String) -> [String] {
        settingsProblems { try make(members) }
    }

    /// With only `publish`, everything else has its documented default.
    @Test func defaults() throws {
        let plugin = try make(#""publish": "gps/*""#)
        let settings = plugin.settings
        #expect(settings.endpoints == [NATSEndpoint(host: "127.0.0.1", port: 4222)])
        #expect(settings.credentials == nil && settings.origin == nil && settings.subscribe.isEmpty)
        #expect(settings.mapping.prefix == "switchyard" && settings.mode == .core)
        #expect(settings.stream == StreamConfiguration(name: "SWITCHYARD", subjects: ["switchyard.>"]))
        #expect(settings.durable == nil && settings.deliverPolicy == .new && settings.ackWait == .seconds(30))
        #expect(settings.maxAckPending == 1000 && settings.batch == 100 && settings.publishWindow == 256)
        #expect(settings.bufferSize == 10_000 && settings.overflow == .dropOldest)
        #expect(settings.reconnectDelay == .milliseconds(250) && settings.maxReconnectDelay == .seconds(10))
        #expect(settings.connectTimeout == .seconds(5) && settings.pingInterval == .seconds(30) && settings.requestTimeout == .seconds(5))
        #expect(plugin.subscription == ActionSubscription(TypePattern("gps/*")!, bufferSize: 10_000, overflow: .dropOldest))
        #expect(plugin.readiness == .immediate)
        #expect(settings.consumer(busName: "x") == nil)
    }

    /// Every setting is read.
    @Test func everySetting() throws {
        let plugin = try make("""
            "url": ["nats://a:4222", "nats://b:4223"], "user": "alice", "password": "pw", "origin": "truck-7",
            "publish": "*", "subscribe": ["fleet.eu.gps.>", "fleet.eu.cmd.*"], "subjectPrefix": "fleet.eu", "mode": "jetstream",
            "stream": {"name": "FLEET", "subjects": ["fleet.eu.>"], "retention": "interest", "storage": "memory", "maxAge": 3600,
                       "maxMessages": 1000, "maxBytes": 1048576, "duplicateWindow": 60, "replicas": 3},
            "durable": "truck_7", "deliver": "all", "ackWait": 10, "maxAckPending": 50, "batch": 20, "publishWindow": 16,
            "bufferSize": 500, "overflow": "drop-newest", "reconnectDelay": 0.1, "maxReconnectDelay": 5, "connectTimeout": 2,
            "pingInterval": 15, "requestTimeout": 3
            """)
        let settings = plugin.settings
        #expect(settings.endpoints == [NATSEndpoint(host: "a"), NATSEndpoint(host: "b", port: 4223)])
        #expect(settings.credentials == .user("alice", password: "pw") && settings.origin == "truck-7")
        #expect(settings.subscribe.map(\.description) == ["fleet.eu.gps.>", "fleet.eu.cmd.*"])
        #expect(settings.stream == StreamConfiguration(name: "FLEET", subjects: ["fleet.eu.>"], retention: .interest, storage: .memory,
                                                       maxAge: .seconds(3600), maxMessages: 1000, maxBytes: 1_048_576,
                                                       duplicateWindow: .seconds(60), replicas: 3))
        #expect(settings.consumer(busName: "ignored") == ConsumerConfiguration(durable: "truck_7", deliverPolicy: .all, ackWait: .seconds(10),
                                                                                maxAckPending: 50, filterSubject: nil))
        #expect(settings.batch == 20 && settings.publishWindow == 16 && settings.bufferSize == 500 && settings.overflow == .dropNewest)
        #expect(settings.backoff == Backoff(initial: .milliseconds(100), maximum: .seconds(5), jitter: 0.5))
        #expect(settings.timing == NATSClientMachine.Timing(connectTimeout: .seconds(2), pingInterval: .seconds(15), maximumPingsOut: 2))
        #expect(settings.requestTimeout == .seconds(3))
        let machine = settings.machineConfiguration(busName: "bus")
        #expect(machine.published.map(\.description) == ["fleet.eu.>"])
    }

    /// URLs may be one string with commas; URL credentials apply unless settings give their own; a token is read.
    @Test func urlsAndCredentials() throws {
        let settings = try make(#""url": "nats://u:p@a:1, nats://b:2", "subscribe": "switchyard.>""#).settings
        #expect(settings.endpoints.map(\.description) == ["nats://a:1", "nats://b:2"])
        #expect(settings.credentials(for: settings.endpoints[0]) == .user("u", password: "p"))
        #expect(settings.credentials(for: settings.endpoints[1]) == nil)
        let token = try make(#""url": "nats://u:p@a:1", "token": "t", "subscribe": "switchyard.>""#).settings
        #expect(token.credentials(for: token.endpoints[0]) == .token("t"))
        #expect(token.consumer(busName: "my bus.1") == nil)
        let jetstream = try make(#""mode": "jetstream", "subscribe": "switchyard.gps.>""#).settings
        #expect(jetstream.consumer(busName: "my bus.1") == ConsumerConfiguration(durable: "my_bus_1", filterSubject: "switchyard.gps.>"))
    }

    /// Each bad setting is reported with its key path and a reason.
    @Test(arguments: [
        ("", #"plugins[1]: nothing to bridge: set "publish" (a type pattern), "subscribe" (subject patterns) or both"#),
        (#""publish": "GPS""#, #"plugins[1].publish: expected an action type pattern"#),
        (#""publish": "*", "url": "http://x""#, #"plugins[1].url: expected the scheme nats://, got "http://""#),
        (#""publish": "*", "url": 4222"#, #"plugins[1].url: expected a nats:// URL or an array of them, got an integer"#),
        (#""publish": "*", "url": []"#, #"plugins[1].url: expected at least one nats:// URL"#),
        (#""publish": "*", "url": ["nats://a", 1]"#, #"plugins[1].url[1]: expected a string, got 1"#),
        (#""subscribe": "gps.>""#, #"plugins[1].subscribe: "gps.>" is outside the subject prefix "switchyard"; did you mean "switchyard.gps.>"?"#),
        (#""subscribe": "switchyard..x""#, #"plugins[1].subscribe: "switchyard..x" has an empty token (two dots, or a dot at an end)"#),
        (#""subscribe": {"a": 1}"#, #"plugins[1].subscribe: expected a subject pattern or an array of them, got an object"#),
        (#""publish": "*", "subjectPrefix": "a.>""#, #"plugins[1].subjectPrefix: "a.>" contains a wildcard, which is not allowed here"#),
        (#""publish": "*", "mode": "exactly-once""#, #"plugins[1].mode: expected one of "core", "jetstream", got "exactly-once""#),
        (#""publish": "*", "durable": "x""#, #"plugins[1].durable: only applies with "mode": "jetstream""#),
        (#""publish": "*", "stream": {}"#, #"plugins[1].stream: only applies with "mode": "jetstream""#),
        (#""publish": "*", "mode": "jetstream", "durable": "a.b""#, #"plugins[1].durable: "a.b" contains '.', '*', '>', a slash or white space, which JetStream names cannot"#),
        (#""publish": "*", "mode": "jetstream", "stream": {"name": "A B"}"#, #"plugins[1].stream.name: "A B" contains '.', '*', '>', a slash or white space, which JetStream names cannot"#),
        (#""publish": "*", "mode": "jetstream", "stream": {"subjects": []}"#, #"plugins[1].stream.subjects: expected at least one subject"#),
        (#""publish": "*", "mode": "jetstream", "stream": {"retention": "forever"}"#, #"plugins[1].stream.retention: expected one of "limits", "interest", "workqueue", got "forever""#),
        (#""publish": "*", "mode": "jetstream", "stream": {"replica": 3}"#, #"plugins[1].stream.replica: unknown key "replica"; did you mean "replicas"?"#),
        (#""publish": "*", "user": "alice""#, #"plugins[1]: "user" needs a "password""#),
        (#""publish": "*", "password": "pw""#, #"plugins[1]: "password" needs a "user""#),
        (#""publish": "*", "token": "t", "user": "a", "password": "p""#, #"plugins[1].token: use either "token" or "user" and "password", not both"#),
        (#""publish": "*", "token": """#, #"plugins[1].token: expected a non-empty token (is its variable set?)"#),
        (#""publish": "*", "origin": """#, #"plugins[1].origin: expected a non-empty name on one line"#),
        (#""publish": "*", "bufferSize": 0"#, #"plugins[1].bufferSize: expected an integer 1-10000000, got 0"#),
        (#""publish": "*", "overflow": "block""#, #"plugins[1].overflow: expected one of "drop-oldest", "drop-newest", got "block""#),
        (#""publish": "*", "mode": "jetstream", "bufferSize": 10, "publishWindow": 20"#, #"plugins[1].publishWindow: must not exceed bufferSize (10)"#),
        (#""publish": "*", "reconnectDelay": 2, "maxReconnectDelay": 1"#, #"plugins[1].maxReconnectDelay: must not be shorter than reconnectDelay"#),
        (#""publish": "*", "pingInterval": -1"#, #"plugins[1].pingInterval: expected a number of seconds 0.01-86400, got -1"#),
        (#""publish": "*", "subjectprefix": "x""#, #"plugins[1].subjectprefix: unknown key "subjectprefix"; did you mean "subjectPrefix"?"#),
    ])
    func rejects(_ members: String, _ message: String) {
        let found = problems(members)
        #expect(found.contains { $0.hasPrefix(message) }, "got \(found)")
    }

    /// A URL with credentials that does not parse is reported without the credentials.
    @Test func problemsHideSecrets() {
        let found = problems(#""publish": "*", "url": "nats://alice:hunter2@host/x""#)
        #expect(found == [#"plugins[1].url: a NATS URL has no path or query, got "nats://***@host/x""#])
    }
}

/// The plugin's slice of bus state.
struct NATSStatusSliceTests {
    private func action(_ type: String, source: String = "fleet", _ payload: JSON) -> BusAction {
        BusAction(type: type, payload: payload, source: source)
    }

    /// Status, failures and overflow of the plugin's own actions fold into the slice; others are ignored.
    @Test func folds() {
        let reduce = NATSStatusSlice.reducer(name: "fleet")
        var slice = NATSStatusSlice.initial(url: "nats://h:4222")
        #expect(slice["status"] == "connecting" && slice["failures"] == 0)
        reduce(&slice, action("fleet/status", ["status": "connected", "url": "nats://h:4222", "server": "n1", "counters": ["published": 3]]))
        #expect(slice["status"] == "connected" && slice["server"] == "n1" && slice["counters"]?["published"] == 3)
        reduce(&slice, action("fleet/failed", ["kind": "unreachable", "message": "refused"]))
        reduce(&slice, action("fleet/status", ["status": "disconnected", "reason": "refused"]))
        #expect(slice["status"] == "disconnected" && slice["lastError"] == "refused" && slice["failures"] == 1)
        reduce(&slice, action("fleet/overflow", ["dropped": 7]))
        #expect(slice["dropped"] == 7)
        reduce(&slice, action("fleet/status", source: "nats:bus-a", ["status": "connected"]))
        reduce(&slice, action("other/status", ["status": "connected"]))
        #expect(slice["status"] == "disconnected")
    }
}
