import Foundation
import SwitchyardTestSupport
import Testing
@testable import switchyard

/// The systemd integration: the notify protocol as the real executable speaks it, and the unit file.
@Suite(.serialized)
struct SystemdTests {
    /// READY=1, then RELOADING=1 + MONOTONIC_USEC and READY=1 around each reload (valid or
    /// refused), STOPPING=1 on SIGTERM, with WATCHDOG=1 pings only after READY=1.
    @Test func notifyMessagesInOrder() async throws {
        let directory = try TemporaryDirectory()
        let receiver = try DatagramReceiver(path: directory.url.appendingPathComponent("notify.sock").path)
        let config = #"{"bus": {"name": "unit", "dataDirectory": "data"}, "plugins": [{"name": "tick", "kind": "timer", "interval": 60}]}"#
        let path = try directory.write("unit.json", config)
        let bus = try SwitchyardProcess(["run", path], directory: directory.url, environment: [
            "NOTIFY_SOCKET": directory.url.appendingPathComponent("notify.sock").path, "WATCHDOG_USEC": "100000",
        ])
        var messages: [String] = []
        /// Collects datagrams until `expected` states (watchdog pings aside) have arrived.
        func collect(until expected: Int) async -> Bool {
            while messages.filter({ $0 != "WATCHDOG=1" }).count < expected {
                guard let message = await receiver.receive() else { return false }
                messages.append(message)
            }
            return true
        }
        #expect(await collect(until: 1))
        while messages.filter({ $0 == "WATCHDOG=1" }).count < 2 {
            guard let message = await receiver.receive() else { break }
            messages.append(message)
        }
        #expect(messages.filter { $0 == "WATCHDOG=1" }.count >= 2, "the healthy bus pings the watchdog")
        bus.signal(SIGHUP)
        #expect(await collect(until: 3))
        _ = try directory.write("unit.json", #"{"plugins": [{"name": "tick", "kind": "timer", "interval": -1}]}"#)
        bus.signal(SIGHUP)
        #expect(await collect(until: 5))
        bus.signal(SIGTERM)
        #expect(await collect(until: 6))
        #expect(await bus.exitStatus() == 0)

        let states = messages.filter { $0 != "WATCHDOG=1" }
        #expect(states.count == 6)
        guard states.count == 6 else { return }
        #expect([states[0], states[2], states[4], states[5]] == ["READY=1", "READY=1", "READY=1", "STOPPING=1"])
        let stamps = [states[1], states[3]].map { message -> UInt64? in
            let lines = message.split(separator: "\n")
            guard lines.count == 2, lines[0] == "RELOADING=1", lines[1].hasPrefix("MONOTONIC_USEC=") else { return nil }
            return UInt64(lines[1].dropFirst("MONOTONIC_USEC=".count))
        }
        #expect(stamps.allSatisfy { $0 != nil && $0! > 0 }, "\(states[1]) / \(states[3])")
        #expect((stamps[0] ?? 0) <= (stamps[1] ?? 0))
        #expect(messages.first == "READY=1", "no ping before READY=1")
        #expect(bus.stderr.contains("keeping the running configuration"))
    }

    /// The watchdog interval is half of WATCHDOG_USEC, and only for the process WATCHDOG_PID names.
    @Test(arguments: [
        (["NOTIFY_SOCKET": "/run/n", "WATCHDOG_USEC": "30000000"], Duration.seconds(15) as Duration?),
        (["NOTIFY_SOCKET": "/run/n", "WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "42"], .seconds(15)),
        (["NOTIFY_SOCKET": "/run/n", "WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "43"], nil),
        (["NOTIFY_SOCKET": "/run/n", "WATCHDOG_USEC": "0"], nil),
        (["NOTIFY_SOCKET": "/run/n", "WATCHDOG_USEC": "soon"], nil),
        (["WATCHDOG_USEC": "30000000"], nil),
    ])
    func watchdogInterval(environment: [String: String], expected: Duration?) {
        #expect(SystemdNotifier(environment: environment, pid: 42).watchdogInterval == expected)
    }

    /// `systemd-analyze verify` accepts the shipped template unit (with this build's executable).
    @Test func unitFileVerifies() async throws {
        guard let analyze = ["/usr/bin/systemd-analyze", "/bin/systemd-analyze"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            try #require(ProcessInfo.processInfo.environment["CI"] == nil, "systemd-analyze is missing (Debian package systemd)")
            print("skipped: systemd-analyze is missing (Debian package systemd)")
            return
        }
        let unit = try String(contentsOf: SwitchyardProcess.packageRoot.appendingPathComponent("Config/systemd/switchyard@.service"), encoding: .utf8)
        for line in ["Type=notify", "ExecReload=/bin/kill -HUP $MAINPID", "WatchdogSec=", "DynamicUser=yes", "StateDirectory=switchyard/%i",
                     "ProtectSystem=strict", "NoNewPrivileges=yes",
                     // The static launcher, so a stop while the libraries load still stops the bus cleanly.
                     "ExecStart=/usr/local/bin/switchyard-launcher run "] {
            #expect(unit.contains(line), "the unit lacks \(line)")
        }
        let directory = try TemporaryDirectory()
        // An instance of the template, pointing at the executable under test.
        let path = try directory.write("switchyard@test.service",
                                       unit.replacingOccurrences(of: "/usr/local/bin/switchyard", with: SwitchyardProcess.executable.path))
        let verify = try InstallTests.run(analyze, ["verify", path])
        #expect(verify.status == 0, "systemd-analyze verify: \(verify.output)")
    }
}
