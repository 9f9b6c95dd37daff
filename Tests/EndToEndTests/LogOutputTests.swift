import Foundation
import SwitchyardTestSupport
import Testing

/// The bus log of the real executable: levels, timestamps, the JSON format, plugin names.
@Suite(.serialized)
struct LogOutputTests {
    private static let talker = #"{"name": "talker", "kind": "exec", "command": "/bin/sh", "args": ["-c", "echo hello from sh >&2; exec sleep 60"]}"#

    /// `--log-format json` writes one JSON object a line with level, time and message; a
    /// plugin's lines carry its name.
    @Test func jsonLogLines() async throws {
        let directory = try TemporaryDirectory()
        let config = try directory.write("log.json", #"{"bus": {"name": "logs", "dataDirectory": "data"}, "plugins": [\#(Self.talker)]}"#)
        let bus = try SwitchyardProcess(["run", config, "--log-format=json"], directory: directory.url)
        #expect(await bus.wait { $0.stderr.contains("hello from sh") && $0.stderr.contains("ready:") })
        bus.signal(SIGTERM)
        #expect(await bus.exitStatus() == 0)
        let objects = try bus.stderr.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not JSON: \(line)")
        }
        #expect(objects.allSatisfy { $0["level"] is String && $0["time"] is String && $0["message"] is String })
        let hello = objects.first { ($0["message"] as? String)?.contains("hello from sh") == true }
        #expect(hello?["plugin"] as? String == "talker")
        #expect(objects.contains { $0["message"] as? String == "SIGTERM: stopping" && $0["plugin"] == nil })
    }

    /// Text lines start with an ISO 8601 time; `--log-level warning` hides info lines, and
    /// `bus.logLevel` does the same from the file.
    @Test func levelsAndTimestamps() async throws {
        let directory = try TemporaryDirectory()
        let config = try directory.write("log.json", #"{"bus": {"name": "logs", "dataDirectory": "data"}, "plugins": [\#(Self.talker)]}"#)
        let text = try SwitchyardProcess(["run", config], directory: directory.url)
        #expect(await text.wait { $0.stderr.contains("hello from sh") })
        text.signal(SIGTERM)
        #expect(await text.exitStatus() == 0)
        let line = try #require(text.stderr.split(separator: "\n").first { $0.contains("talker: hello from sh") })
        #expect(line.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z switchyard: info: talker: "#, options: .regularExpression) != nil)

        let quietFile = try directory.write("quiet.json", #"{"bus": {"name": "quiet", "dataDirectory": "data2", "logLevel": "error"}, "plugins": [\#(Self.talker)]}"#)
        let quiet = try SwitchyardProcess(["run", config, "--log-level", "warning"], directory: directory.url)
        let quieter = try SwitchyardProcess(["run", quietFile], directory: directory.url)
        // "ready:" is an info line, hidden here: a bus that answers `stats` is up. Then the
        // info line of SIGTERM must not appear either.
        for (process, file) in [(quiet, config), (quieter, quietFile)] {
            #expect(await Self.answers(config: file, in: directory.url))
            process.signal(SIGTERM)
            #expect(await process.exitStatus() == 0)
            #expect(!process.stderr.contains("info:"), "\(process.stderr)")
        }
        let refused = try SwitchyardProcess(["run", config, "--log-level", "loud"], directory: directory.url)
        #expect(await refused.exitStatus() == 2)
        #expect(refused.stderr.contains("--log-level expects trace, debug, info, warning, error"))
    }

    /// Whether the bus of `config` answers `stats` within a generous deadline.
    private static func answers(config: String, in directory: URL) async -> Bool {
        let deadline = ContinuousClock.now.advanced(by: .seconds(30))
        while ContinuousClock.now < deadline {
            if let stats = try? SwitchyardProcess(["stats", "--config", config], directory: directory), await stats.exitStatus() == 0 {
                return true
            }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return false
    }
}
