import SwitchyardBus
import Synchronization
import Testing

/// Credentials from the environment are secret and shown as `${NAME}` in what the bus writes
/// about its configuration; other values are plain.
struct SecretsTests {
    static let environment = ["TOKEN": "tok-abcdef-123456", "HOME": "/home/someone", "SHORT": "ab", "PW": "p@ss word/x"]

    /// Every position of a value is replaced by its reference; raw and percent-encoded forms alike.
    @Test(arguments: [
        ("https://api.example/bot tok-abcdef-123456/send", "https://api.example/bot ${TOKEN}/send"),
        ("Bearer tok-abcdef-123456", "Bearer ${TOKEN}"),
        ("u:p%40ss%20word%2Fx@h", "u:${PW}@h"),
        ("/p@ss%20word/x/", "/${PW}/"),
        ("nothing here", "nothing here"),
        ("ab ab", "ab ab"),
    ])
    func redactsText(text: String, expected: String) {
        let secrets = Secrets(references: ["TOKEN", "PW", "SHORT"], environment: Self.environment)
        #expect(secrets.redact(text) == expected)
    }

    /// A configuration's secrets are the variables it used from the environment, less the public ones.
    @Test func configurationCollectsSecrets() throws {
        let text = """
            {"bus": {"publicVariables": ["HOME"], "dataDirectory": "${HOME}/data"},
             "plugins": [{"name": "t", "kind": "timer", "type": "t/x", "payload": {"token": "${TOKEN}", "d": "${MISSING:-default-value}"}}]}
            """
        let configuration = try BusConfiguration.parse(text, file: "c.json", environment: Self.environment, knownKinds: ["timer"])
        #expect(configuration.secrets.names == ["TOKEN"])
        #expect(configuration.bus.dataDirectory == "/home/someone/data")
        #expect(configuration.secrets.redact(JSON.object(["a": .array([.string("x tok-abcdef-123456")])])) == ["a": ["x ${TOKEN}"]])
    }

    /// Only credentials are secret: a marked reference, a credential-named key (at any depth,
    /// so headers count), URL user info and key-like query values; ports, hosts, devices and
    /// URLs without credentials are plain.
    @Test func onlyCredentialsAreSecret() throws {
        let environment = [
            "GPSD_PORT": "29471", "DEVICE": "/dev/ttyUSB0", "PLACES_URL": "https://example.org/places", "PW": "pw-in-userinfo",
            "KEY": "key-in-query", "Q": "plain-query", "AUTH": "auth-header-1", "NUSER": "nats-user", "NPW": "nats-pass",
            "NTOKEN": "nats-token", "MARKED": "marked-value", "NATS_URL": "nats://alice:pw-in-variable@h:4222?token=tok-in-variable",
        ]
        let text = #"""
            {"plugins": [
              {"name": "gps", "kind": "k", "port": "${GPSD_PORT}", "device": "${DEVICE}", "note": "${secret:MARKED}"},
              {"name": "places", "kind": "k", "request": {"url": "https://u:${PW}@h/x?api_key=${KEY}&q=${Q}",
                "headers": {"Authorization": "Bearer ${AUTH}"}, "base": "${PLACES_URL}"}},
              {"name": "fleet", "kind": "k", "url": ["${NATS_URL}"], "user": "${NUSER}", "password": "${NPW}", "token": "${NTOKEN}"}]}
            """#
        let configuration = try BusConfiguration.parse(text, file: "c.json", environment: environment, knownKinds: ["k"])
        #expect(configuration.secrets.names == ["AUTH", "KEY", "MARKED", "NPW", "NTOKEN", "NUSER", "PW"])
        #expect(configuration.plugins[0].settings["note"] == "marked-value")
        let secrets = configuration.secrets
        #expect(secrets.redact("127.0.0.1:29471 /dev/ttyUSB0 https://example.org/places?q=plain-query") ==
            "127.0.0.1:29471 /dev/ttyUSB0 https://example.org/places?q=plain-query")
        #expect(secrets.redact("connected to nats://alice:pw-in-variable@h:4222?token=tok-in-variable") ==
            "connected to nats://***@h:4222?token=***")
        #expect(secrets.redact("Bearer auth-header-1 for nats-user") == "Bearer ${AUTH} for ${NUSER}")
    }

    /// `${secret:NAME}` expands like `${NAME}`, with a default too.
    @Test(arguments: [
        ("${secret:MARKED}", "marked-value"), ("${secret:UNSET:-fallback}", "fallback"), ("a${secret:MARKED}b", "amarked-valueb"),
    ])
    func markedReferencesExpand(text: String, expected: String) {
        var problems: [String] = []
        #expect(EnvironmentExpander(environment: ["MARKED": "marked-value"]).expand(text, problems: &problems) == expected)
        #expect(problems.isEmpty)
    }

    /// A problem that quotes an expanded value shows the reference instead.
    @Test func problemsHideValues() {
        let text = #"{"plugins": [{"name": "t", "kind": "${secret:TOKEN}"}]}"#
        do {
            _ = try BusConfiguration.parse(text, file: "c.json", environment: Self.environment, knownKinds: ["timer"])
            Issue.record("an unknown kind was accepted")
        } catch {
            #expect(!error.description.contains("tok-abcdef-123456"))
            #expect(error.description.contains("${secret:TOKEN}"))
        }
    }

    /// The log sink of a bus never writes a secret.
    @Test func logSinkHidesSecrets() {
        let lines = LinesBox()
        let sink = LogSink { lines.append($0) }
        sink.hide(Secrets(references: ["TOKEN"], environment: Self.environment))
        sink.write(.warning, "GET https://h/bot tok-abcdef-123456 failed")
        #expect(lines.all == ["switchyard: warning: GET https://h/bot ${TOKEN} failed"])
    }
}

/// Lines collected from any thread.
final class LinesBox: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}
