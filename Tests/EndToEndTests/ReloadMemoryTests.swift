import Foundation
import SwitchyardTestSupport
import Testing

/// SIGHUP after SIGHUP does not make the bus grow: nothing a reload builds outlives the next one.
@Suite(.serialized)
struct ReloadMemoryTests {
    static let warmUp = 300
    static let measured = 1_500
    /// About 2 KiB a reload: far above what the process keeps for good (thread stacks touched
    /// once, malloc arenas settling, libdispatch's continuation cache: about 1 MiB in all over
    /// these reloads, measured), far below what leaking a plugin runner, a reload plan or a
    /// configuration per reload would add.
    static let bound = 3 * 1024 * 1024

    /// RSS after 1,800 reloads (each restarting a plugin) is within 3 MiB of RSS after 300.
    @Test(.scaledTimeLimit(minutes: 15)) func manyReloadsKeepMemoryFlat() async throws {
        let directory = try TemporaryDirectory()
        let socketPath = directory.url.appendingPathComponent("notify.sock").path
        let notifications = try DatagramReceiver(path: socketPath)
        // A short stop timeout and timer interval: a reload cancels waits of that length, and
        // Swift keeps a cancelled sleep's wake-up until its deadline, so long ones would add
        // memory in proportion to the reload rate, freed only later.
        let bus = try await RunningBus.start(bus: #"{"name": "reloads", "stopTimeout": 1}"#, plugins: Self.plugins(round: 0),
                                             in: directory, environment: ["NOTIFY_SOCKET": socketPath])
        try #require(await Self.nextReady(notifications), "no READY=1 at start")
        var before = 0
        for round in 1...(Self.warmUp + Self.measured) {
            _ = try directory.write("config.json", """
                {"bus": {"name": "reloads", "stopTimeout": 1, "dataDirectory": "data"}, "plugins": \(Self.plugins(round: round))}
                """)
            bus.process.signal(SIGHUP)
            try #require(await Self.nextReady(notifications), "reload \(round) never finished; stderr:\n\(bus.process.stderr.suffix(2000))")
            if round == Self.warmUp { before = try Self.residentBytes(bus.process.pid) }
        }
        let after = try Self.residentBytes(bus.process.pid)
        #expect(after - before < Self.bound, "RSS grew from \(before / 1024) KiB to \(after / 1024) KiB over \(Self.measured) reloads")
        // READY=1 comes by datagram, the log line through the stderr pipe: the last reload's
        // line may still be on its way when the last READY=1 is read.
        let restarts = { (process: SwitchyardProcess) in process.stderr.components(separatedBy: "restarted tick").count - 1 }
        #expect(await bus.process.wait { restarts($0) >= Self.warmUp + Self.measured })
        #expect(restarts(bus.process) == Self.warmUp + Self.measured)
        #expect(await bus.stop() == 0)
    }

    /// A timer whose interval changes every round, so every reload stops and starts it, and a logger that stays.
    static func plugins(round: Int) -> String {
        #"[{"name": "tick", "kind": "timer", "interval": \#(round % 2 == 0 ? 1 : 2)}, {"name": "log", "kind": "logger", "to": "/dev/null"}]"#
    }

    /// Reads notifications until `READY=1` (a reload sends `RELOADING=1` first).
    static func nextReady(_ notifications: DatagramReceiver) async -> Bool {
        while let message = await notifications.receive(interval: .milliseconds(1)) {
            if message == "READY=1" { return true }
        }
        return false
    }

    static func residentBytes(_ pid: pid_t) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kilobytes = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        else { throw ControlE2EFailure(description: "no VmRSS in /proc/\(pid)/status") }
        return kilobytes * 1024
    }
}
