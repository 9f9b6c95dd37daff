import Foundation
import SwitchyardTestSupport
import Testing

/// Credentials from `${VAR}` never leave the real bus in what it writes about its
/// configuration: not in its log and errors, the logger, `tail`, state, stats or the journal's
/// status and failure actions — whatever the position of the credential and whatever the outcome
/// of the request that carried it. Ordinary `${VAR}` values are shown as they are.
@Suite(.serialized)
struct SecretTests {
    /// The credentials: a marked path segment, URL user info, an `Authorization` header, a NATS
    /// password.
    static let secrets = [
        "TOKEN": "tok-1234567890-abcdef",
        "USERPW": "hunter2-password",
        "HEADER": "header-secret-77",
        "NATSPW": "nats-password-99",
    ]
    /// Ordinary values: shown, sent and journaled as they are.
    static let plain = ["QUERY": "plainqueryvalue42", "BODY": "body-plain-88", "ARG": "argument-plain-55"]

    /// Every text the bus produced that must not hold a secret value.
    static func leaks(in texts: [String: String]) -> [String] {
        texts.flatMap { place, text in
            secrets.compactMap { name, value in text.contains(value) ? "\(name) in \(place)" : nil }
        }.sorted()
    }

    /// A credential in the URL path, user info and a header, through 200, 500, timeout, refused, redirect and non-JSON.
    @Test func secretsStayHiddenThroughEveryOutcome() async throws {
        let token = Self.secrets["TOKEN"]!
        let server = try await HTTPScriptServer.start(routes: """
            {"/bot\(token)/ok": [{"json": {"fine": true}}],
             "/bot\(token)/error": [{"status": 500, "body": "failed for \(token)"}],
             "/bot\(token)/slow": [{"hold": true}],
             "/bot\(token)/moved": [{"status": 302, "headers": {"Location": "/bot\(token)/ok"}}],
             "/bot\(token)/text": [{"body": "not json \(token)"}]}
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
               "url": "http://user:${USERPW}@\(base)/bot${secret:TOKEN}/\(path)?plain=${QUERY}",
               "headers": {"Authorization": "Bearer ${HEADER}"}, "body": {"b": "${BODY}"}}}
            """
        }
        let host = "127.0.0.1:\(server.port)"
        let directory = try TemporaryDirectory()
        let log = directory.url.appendingPathComponent("actions.jsonl").path
        let echo = #"echo "{\"type\":\"child/said\",\"payload\":\"$1\"}"; exec cat > /dev/null"#
        let environment = Self.secrets.merging(Self.plain) { $1 }
        let bus = try await RunningBus.start(plugins: """
            [\(fetcher("ok", host, "ok", timeout: patience)), \(fetcher("error", host, "error", timeout: patience)),
             \(fetcher("slow", host, "slow", timeout: 1)), \(fetcher("moved", host, "moved", timeout: patience)),
             \(fetcher("text", host, "text", timeout: patience)), \(fetcher("refused", "127.0.0.1:\(closed)", "ok", timeout: patience)),
             {"name": "child", "kind": "exec", "command": "/bin/sh", "args": ["-c", \(Self.quoted(echo)), "sh", "${ARG}"]},
             {"name": "fleet", "kind": "nats", "url": "nats://user:${NATSPW}@127.0.0.1:\(closed)", "publish": "go/*",
              "reconnectDelay": 0.05, "maxReconnectDelay": 0.2},
             {"name": "log", "kind": "logger", "format": "json", "to": "\(log)"},
             {"name": "textlog", "kind": "logger", "format": "text", "to": "stderr"}]
            """, in: directory, environment: environment)
        let tail = try SwitchyardProcess(["tail", "--json", "--config", bus.configPath], directory: directory.url, environment: environment)
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
        // A credential is replaced by its reference or masked; an ordinary value is shown.
        #expect(logged().contains("/bot${TOKEN}/ok?plain=\(Self.plain["QUERY"]!)"))
        #expect(logged().contains("http://***@127.0.0.1"))
        // What a child said is journaled as it said it.
        #expect(logged().contains(#""payload":"\#(Self.plain["ARG"]!)""#))
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

    /// Errors at start name the variable or mask the credential, never its value.
    @Test func configurationErrorsHideValues() async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("bad.json", """
            {"plugins": [{"name": "x", "kind": "${secret:TOKEN}"},
                         {"name": "f", "kind": "network-fetch", "on": "a/b", "request": {"url": "ftp://u:${USERPW}@h/path"}},
                         {"name": "n", "kind": "nats", "url": "nats://u:${NATSPW}@h/path"}]}
            """)
        let validate = try SwitchyardProcess(["validate", path], directory: directory.url, environment: Self.secrets)
        #expect(await validate.exitStatus() == 78)
        #expect(validate.stderr.contains("${secret:TOKEN}"))
        #expect(validate.stderr.contains("plugins[1].request.url") && validate.stderr.contains("plugins[2].url"), "\(validate.stderr)")
        #expect(Self.leaks(in: ["validate": validate.stderr + validate.stdout]) == [])
    }

    static func quoted(_ text: String) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: [text]), as: UTF8.self).dropFirst().dropLast().description
    }
}
