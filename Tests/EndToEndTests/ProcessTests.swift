import Foundation
import SwitchyardTestSupport
import Testing

@Suite(.serialized)
struct ProcessTests {
    /// The default configuration runs offline, becomes ready, logs actions, and stops cleanly on SIGTERM.
    @Test func defaultConfigurationRunsAndStopsOnSIGTERM() async throws {
        let bus = try SwitchyardProcess(["run"])
        #expect(await bus.wait { $0.stderr.contains("ready:") })
        #expect(await bus.wait { $0.stdout.contains("bus/started") })
        bus.signal(SIGTERM)
        #expect(await bus.exitStatus() == 0)
        #expect(bus.stdout.contains("bus/stopping"))
        #expect(bus.stderr.contains("SIGTERM: stopping"))
    }

    /// A timer and a JSON logger write one JSON action per line; SIGINT stops it with exit 0.
    @Test func timerAndJSONLoggerEndToEnd() async throws {
        let directory = try TemporaryDirectory()
        let log = directory.url.appendingPathComponent("actions.jsonl").path
        let config = try directory.write("tick.json", """
            {"bus": {"name": "e2e"}, "plugins": [
              {"name": "tick", "kind": "timer", "interval": 0.02, "count": 3},
              {"name": "log", "kind": "logger", "format": "json", "to": "\(log)"}
            ]}
            """)
        let bus = try SwitchyardProcess(["run", config])
        let ticked = await bus.wait { _ in
            ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").components(separatedBy: "tick/tick").count > 3
        }
        #expect(ticked)
        bus.signal(SIGINT)
        #expect(await bus.exitStatus() == 0)
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        let objects = try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let ticks = objects.compactMap { $0 }.filter { $0["type"] as? String == "tick/tick" }
        #expect(ticks.count == 3)
        #expect(ticks.map { ($0["payload"] as? [String: Any])?["tick"] as? Int } == [1, 2, 3])
        #expect(ticks.allSatisfy { $0["source"] as? String == "tick" && $0["id"] is Int && $0["time"] is String })
        // Plugins start before the bus announces itself (README: a plugin may emit before
        // `bus/started`), so on a loaded machine a 20 ms tick can come first.
        #expect(objects.contains { $0?["type"] as? String == "bus/started" })
        #expect(objects.last??["type"] as? String == "bus/stopping")
    }

    /// SIGTERM while the bus is still starting ends it cleanly with exit 0.
    @Test func sigtermDuringStartup() async throws {
        let bus = try SwitchyardProcess(["run"])
        #expect(await bus.wait { $0.hasBlockedStopSignals })
        bus.signal(SIGTERM)
        #expect(await bus.exitStatus() == 0)
    }

    /// An invalid configuration exits 78 and names the key path on stderr.
    @Test func invalidConfigurationExits78() async throws {
        let directory = try TemporaryDirectory()
        let config = try directory.write("bad.json", """
            {"plugins": [{"name": "tick", "kind": "timer", "interval": "soon"}, {"name": "log", "kind": "loger"}]}
            """)
        let bus = try SwitchyardProcess(["run", config])
        #expect(await bus.exitStatus() == 78)
        #expect(bus.stderr.contains("bad.json: plugins[0].interval"))
        #expect(bus.stderr.contains("plugins[1].kind"))
        #expect(bus.stderr.contains("logger"))
    }

    /// `validate` accepts a good file with exit 0 and reports every problem of a bad one with exit 78.
    @Test func validateCommand() async throws {
        let good = try SwitchyardProcess(["validate", "Config/default.json"])
        #expect(await good.exitStatus() == 0)
        #expect(good.stdout.contains("valid"))
        let directory = try TemporaryDirectory()
        let config = try directory.write("broken.json", "{\n  \"plugins\": [\n    {\"name\": \"x\" \"kind\": \"timer\"}\n  ]\n}\n")
        let bad = try SwitchyardProcess(["validate", config])
        #expect(await bad.exitStatus() == 78)
        #expect(bad.stderr.contains("line 3"))
    }

    /// `plugins` lists every built-in kind with its settings; `--version` and `--help` answer.
    @Test func informationalCommands() async throws {
        let plugins = try SwitchyardProcess(["plugins"])
        #expect(await plugins.exitStatus() == 0)
        for kind in ["logger:", "timer:", "interval", "format"] { #expect(plugins.stdout.contains(kind)) }
        let version = try SwitchyardProcess(["--version"])
        #expect(await version.exitStatus() == 0)
        #expect(version.stdout.hasPrefix("switchyard "))
        let help = try SwitchyardProcess(["--help"])
        #expect(await help.exitStatus() == 0)
        #expect(help.stdout.contains("usage:"))
    }

    /// A wrong command line exits 2 with the usage on stderr.
    @Test func usageErrorExits2() async throws {
        let bus = try SwitchyardProcess(["frobnicate"])
        #expect(await bus.exitStatus() == 2)
        #expect(bus.stderr.contains("usage:"))
    }

    /// With NOTIFY_SOCKET set, the bus sends READY=1 once every plugin started.
    @Test func notifiesSystemdWhenReady() async throws {
        let directory = try TemporaryDirectory()
        let socketPath = directory.url.appendingPathComponent("notify.sock").path
        let receiver = try DatagramReceiver(path: socketPath)
        let bus = try SwitchyardProcess(["run"], environment: ["NOTIFY_SOCKET": socketPath])
        let message = await receiver.receive()
        #expect(message == "READY=1")
        let logged = await bus.wait { $0.stderr.contains("ready:") }
        #expect(logged)
        bus.signal(SIGTERM)
        #expect(await bus.exitStatus() == 0)
    }

    /// SIGHUP with a broken configuration keeps the running one and says why.
    @Test func sighupKeepsRunningConfigurationWhenNewOneIsInvalid() async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("reload.json", """
            {"plugins": [{"name": "tick", "kind": "timer", "interval": 0.05}, {"name": "log", "kind": "logger"}]}
            """)
        let bus = try SwitchyardProcess(["run", path])
        #expect(await bus.wait { $0.stderr.contains("ready:") })
        _ = try directory.write("reload.json", #"{"plugins": [{"name": "tick", "kind": "timer", "interval": -1}]}"#)
        bus.signal(SIGHUP)
        #expect(await bus.wait { $0.stderr.contains("keeping the running configuration") })
        #expect(bus.stderr.contains("plugins[0].interval"))
        let ticksBefore = bus.stdout.components(separatedBy: "tick/tick").count
        #expect(await bus.wait { $0.stdout.components(separatedBy: "tick/tick").count > ticksBefore })
        bus.signal(SIGTERM)
        #expect(await bus.exitStatus() == 0)
    }
}

/// A Unix datagram socket standing in for systemd's notify socket.
final class DatagramReceiver: Sendable {
    private let descriptor: Int32

    init(path: String) throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        let bound = withSocketAddress(unixSocketAddress(path)) { bind(descriptor, $0, $1) }
        guard bound == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
    }

    /// The next datagram as text, or `nil` after `timeout` (scaled); checks every `interval`.
    func receive(timeout: Duration = .seconds(30), interval: Duration = .milliseconds(20)) async -> String? {
        let deadline = TestDeadline(after: timeout)
        var buffer = [UInt8](repeating: 0, count: 256)
        while !deadline.hasPassed {
            let count = recv(descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if count > 0 { return String(decoding: buffer[0..<count], as: UTF8.self) }
            try? await Task.sleep(for: interval)
        }
        return nil
    }

    deinit {
        close(descriptor)
    }
}
