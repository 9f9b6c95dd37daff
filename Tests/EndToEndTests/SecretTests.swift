import Foundation
import SwitchyardTestSupport
import Testing

/// Values that came from `${VAR}` never leave the real bus: not in actions, state, the
/// journal, `tail`, the logger, stats or its log and errors — whatever the position of the
/// secret and whatever the outcome of the request that carried it.
@Suite(.serialized)
struct SecretTests {
    static let secrets = [
        "TOKEN": "tok-1234567890-abcdef",
        "USERPW": "hunter2-password",
        "QUERY": "plainqueryvalue42",
        "HEADER": "header-secret-77",
        "BODY": "body-secret-88",
        "NATSPW": "nats-password-99",
        "ARG": "argument-secret-55",
    ]

    /// Every text the bus produced that must not hold a secret value.
    static func leaks(in texts: [String: String]) -> [String] {
        texts.flatMap { place, text in
            secrets.compactMap { name, value in text.contains(value) ? "\(name) in \(place)" : nil }
        }.sorted()
    }

    /// A secret in the URL path, user info, query, a header and the body, through 200, 500, timeout, refused, redirect and non-JSON.
    @Test func secretsStayHiddenThroughEveryOutcome() async throws {
        let server = try await HTTPScriptServer.start(routes: """
            {"/bot\(Self.secrets["TOKEN"]!)/ok": [{"echo": true}],
             "/bot\(Self.secrets["TOKEN"]!)/error": [{"status": 500, "body": "failed for \(Self.secrets["TOKEN"]!)"}],
             "/bot\(Self.secrets["TOKEN"]!)/slow": [{"hold": true}],
             "/bot\(Self.secrets["TOKEN"]!)/moved": [{"status": 302, "headers": {"Location": "/bot\(Self.secrets["TOKEN"]!)/ok"}}],
             "/bot\(Self.secrets["TOKEN"]!)/text": [{"body": "not json \(Self.secrets["TOKEN"]!)"}]}
            """)
        let closed = try unusedLocalPort()
        // Only the held request is meant to time out; the others get a bound no loaded machine
        // reaches (a redirect is two requests through a bus sharing the CPU), so each ends in
        // the outcome under test.
        let patience = Int(30 * TestTimeouts.scale)
        func fetcher(_ name: String, _ base: String, _ path: String, timeout: Int) -> String {
            """
            {"name": "\(name)", "kind": "network-fetch", "on": "go/fetch", "policy": "every", "retry": {"attempts": 1},
             "request": {"method": "POST", "timeout": \(timeout),
               "url": "http://user:${USERPW}@\(base)/bot${TOKEN}/\(path)?plain=${QUERY}",
               "headers": {"X-Thing": "${HEADER}"}, "body": {"b": "${BODY}"}}}
            """
        }
        let host = "127.0.0.1:\(server.port)"
        let directory = try TemporaryDirectory()
        let log = directory.url.appendingPathComponent("actions.jsonl").path
        let echo = #"echo "{\"type\":\"child/said\",\"payload\":\"$1\"}"; exec cat > /dev/null"#
        let bus = try await RunningBus.start(plugins: """
            [\(fetcher("ok", host, "ok", timeout: patience)), \(fetcher("error", host, "error", timeout: patience)),
             \(fetcher("slow", host, "slow", timeout: 1)), \(fetcher("moved", host, "moved", timeout: patience)),
             \(fetcher("text", host, "text", timeout: patience)), \(fetcher("refused", "127.0.0.1:\(closed)", "ok", timeout: patience)),
             {"name": "child", "kind": "exec", "command": "/bin/sh", "args": ["-c", \(Self.quoted(echo)), "sh", "${ARG}"]},
             {"name": "fleet", "kind": "nats", "url": "nats://user:${NATSPW}@127.0.0.1:\(closed)", "publish": "go/*",
              "reconnectDelay": 0.05, "maxReconnectDelay": 0.2},
             {"name": "log", "kind": "logger", "format": "json", "to": "\(log)"},
             {"name": "textlog", "kind": "logger", "format": "text", "to": "stderr"}]
            """, in: directory, environment: Self.secrets)
        let tail = try SwitchyardProcess(["tail", "--json", "--config", bus.configPath], directory: directory.url, environment: Self.secrets)
        #expect(try await bus.waitForWatchers(1))
        #expect(try await bus.client(["send", "go/fetch"]).status == 0)
        let logged = { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
        let outcomes = ["ok/loaded", "error/failed", "slow/failed", "moved/loaded", "text/failed", "refused/failed", "child/said"]
        let missing = { outcomes.filter { !logged().contains(#""type":"\#($0)""#) } }
        await eventually(timeout: .seconds(90), interval: .milliseconds(50)) { missing().isEmpty }
        // What the plugins of the missing outcomes did instead, to tell a failure apart from a hang.
        let instead = missing().flatMap { outcome in
            logged().split(separator: "\n").filter { $0.contains(#""source":"\#(outcome.prefix { $0 != "/" })""#) }
        }
        #expect(missing() == [], "\(instead.joined(separator: "\n"))\nbus:\n\(bus.process.stderr)")
        // The value is replaced by the reference, so what was sent can still be told apart.
        #expect(logged().contains("/bot${TOKEN}/ok"))
        #expect(logged().contains("${ARG}"))
        let state = try await bus.client(["state", "--json"])
        let stats = try await bus.client(["stats", "--json"])
        #expect(state.status == 0 && stats.status == 0, "\(state.stderr)\(stats.stderr)")
        #expect(await bus.stop() == 0, "\(bus.process.stderr)")
        #expect(await tail.exitStatus() == 0, "\(tail.stderr)")
        let journal = try await bus.client(["journal", "show"])
        #expect(journal.status == 0)
        #expect(journal.stdout.contains("ok/loaded"))
        #expect(Self.leaks(in: [
            "the logger": logged(), "the bus's log": bus.process.stderr + bus.process.stdout, "tail": tail.stdout,
            "state": state.stdout, "stats": stats.stdout, "journal show": journal.stdout + journal.stderr,
        ]) == [])
    }

    /// Errors at start name the variable, never its value; a public variable is shown.
    @Test func configurationErrorsHideValues() async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("bad.json", """
            {"plugins": [{"name": "x", "kind": "${TOKEN}"},
                         {"name": "f", "kind": "network-fetch", "on": "a/b", "request": {"url": "${QUERY}/path"}},
                         {"name": "n", "kind": "nats", "url": "${NATSPW}"}]}
            """)
        let validate = try SwitchyardProcess(["validate", path], directory: directory.url, environment: Self.secrets)
        #expect(await validate.exitStatus() == 78)
        #expect(validate.stderr.contains("${TOKEN}"))
        #expect(Self.leaks(in: ["validate": validate.stderr + validate.stdout]) == [])

        let logDirectory = try TemporaryDirectory()
        let log = logDirectory.url.appendingPathComponent("actions.jsonl").path
        let bus = try await RunningBus.start(bus: #"{"name": "pub", "publicVariables": ["QUERY"]}"#, plugins: """
            [{"name": "t", "kind": "timer", "interval": 0.05, "count": 1, "type": "t/tick", "payload": {"q": "${QUERY}", "t": "${TOKEN}"}},
             {"name": "log", "kind": "logger", "format": "json", "to": "\(log)"}]
            """, environment: Self.secrets)
        let logged = { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
        for _ in 0..<400 where !logged().contains("t/tick") {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(logged().contains(#""q":"\#(Self.secrets["QUERY"]!)""#))
        #expect(logged().contains(#""t":"${TOKEN}""#))
        #expect(!logged().contains(Self.secrets["TOKEN"]!))
        #expect(await bus.stop() == 0)
    }

    static func quoted(_ text: String) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: [text]), as: UTF8.self).dropFirst().dropLast().description
    }
}
