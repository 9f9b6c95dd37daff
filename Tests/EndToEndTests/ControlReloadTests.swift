import Foundation
import SwitchyardTestSupport
import Testing

/// SIGHUP reloads a running bus's configuration file, as a control of the running process.
@Suite(.serialized)
struct ControlReloadTests {
    private func plugins(_ bus: RunningBus) async throws -> [[String: Any]] {
        let stats = try await bus.client(["stats", "--json"])
        return object(stats.stdout)["plugins"] as? [[String: Any]] ?? []
    }

    /// SIGHUP applies a valid file by plugin name and keeps everything for an invalid one.
    @Test func sighupAppliesTheNewConfiguration() async throws {
        let bus = try await RunningBus.start(plugins: """
            [{"name": "keep", "kind": "timer", "interval": 0.05, "type": "keep/tick"},
             {"name": "gone", "kind": "timer", "interval": 60},
             {"name": "change", "kind": "timer", "interval": 60, "type": "change/slow"}]
            """)
        let tail = try SwitchyardProcess(["tail", "*", "--json", "--config", bus.configPath], directory: bus.directory.url)
        #expect(try await bus.waitForWatchers(1))
        _ = try bus.directory.write("config.json", """
            {"bus": {"name": "e2e", "dataDirectory": "data"}, "plugins": [
             {"name": "added", "kind": "timer", "interval": 0.05, "type": "added/tick"},
             {"name": "keep", "kind": "timer", "interval": 0.05, "type": "keep/tick"},
             {"name": "change", "kind": "timer", "interval": 0.05, "type": "change/fast"}]}
            """)
        bus.process.signal(SIGHUP)
        #expect(await bus.process.wait { $0.stderr.contains("reloaded") })
        #expect(bus.process.stderr.contains("added added; removed gone; restarted change; 1 unchanged"))
        #expect(await tail.wait { $0.stdout.contains("added/tick") && $0.stdout.contains("change/fast") })
        #expect(tail.stdout.contains(#""type":"bus/reloaded""#))
        let names = try await plugins(bus).compactMap { $0["name"] as? String }
        #expect(names == ["added", "keep", "change"])
        let keep = try await plugins(bus).first { $0["name"] as? String == "keep" }
        #expect(keep?["restarts"] as? Int == 0)

        _ = try bus.directory.write("config.json", #"{"bus": {"dataDirectory": "data"}, "plugins": [{"name": "keep", "kind": "timer", "interval": "soon"}]}"#)
        bus.process.signal(SIGHUP)
        #expect(await bus.process.wait { $0.stderr.contains("keeping the running configuration") })
        #expect(bus.process.stderr.contains("plugins[0].interval"))
        #expect(try await plugins(bus).count == 3)

        tail.signal(SIGINT)
        #expect(await tail.exitStatus() == 0)
        #expect(await bus.stop() == 0)
    }

    /// A logger the reload restarts, and one it adds, record the `bus/reloaded` of that reload:
    /// they subscribe before it is dispatched.
    @Test func restartedAndAddedLoggersSeeTheReload() async throws {
        let bus = try await RunningBus.start(plugins: """
            [{"name": "log", "kind": "logger", "format": "json", "to": "before.jsonl"}]
            """)
        _ = try bus.directory.write("config.json", """
            {"bus": {"name": "e2e", "dataDirectory": "data"}, "plugins": [
             {"name": "log", "kind": "logger", "format": "json", "to": "restarted.jsonl"},
             {"name": "new", "kind": "logger", "format": "json", "to": "added.jsonl"}]}
            """)
        bus.process.signal(SIGHUP)
        #expect(await bus.process.wait { $0.stderr.contains("reloaded") })
        #expect(bus.process.stderr.contains("added new; restarted log"))
        for file in ["restarted.jsonl", "added.jsonl"] {
            let path = bus.directory.url.appendingPathComponent(file).path
            let logged = await eventually {
                (try? String(contentsOfFile: path, encoding: .utf8))?.contains(#""type":"bus/reloaded""#) == true
            }
            #expect(logged, "\(file) has no bus/reloaded: \((try? String(contentsOfFile: path, encoding: .utf8)) ?? "(missing)")")
        }
        #expect(await bus.stop() == 0)
    }

    /// A data directory change cannot apply to a running bus: it is reported and kept.
    @Test func dataDirectoryChangeIsKept() async throws {
        let bus = try await RunningBus.start(plugins: #"[{"name": "keep", "kind": "timer", "interval": 60}]"#)
        _ = try bus.directory.write("config.json", """
            {"bus": {"name": "e2e", "dataDirectory": "elsewhere"}, "plugins": [{"name": "keep", "kind": "timer", "interval": 60}]}
            """)
        bus.process.signal(SIGHUP)
        #expect(await bus.process.wait { $0.stderr.contains("reloaded") })
        #expect(bus.process.stderr.contains("kept bus.dataDirectory"))
        let stats = try SwitchyardProcess(["stats", "--socket", bus.socketPath], directory: bus.directory.url)
        #expect(await stats.exitStatus() == 0)
        #expect(await bus.stop() == 0)
    }
}
