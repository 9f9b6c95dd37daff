import Switchyard
import Synchronization
import Testing

/// Values from the environment are secret by default and shown as `${NAME}` everywhere.
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

    /// A problem that quotes an expanded value shows the reference instead.
    @Test func problemsHideValues() {
        let text = #"{"plugins": [{"name": "t", "kind": "${TOKEN}"}]}"#
        do {
            _ = try BusConfiguration.parse(text, file: "c.json", environment: Self.environment, knownKinds: ["timer"])
            Issue.record("an unknown kind was accepted")
        } catch {
            #expect(!error.description.contains("tok-abcdef-123456"))
            #expect(error.description.contains("${TOKEN}"))
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
