import Foundation
import SwitchyardTestSupport
import Testing

/// Exec children never outlive the bus: not after a forced second stop signal, not after
/// `kill -9`.
@Suite(.serialized)
struct ChildLifetimeTests {
    /// A shell child that ignores SIGTERM, starts a grandchild in its group and records both pids.
    static func plugins(pidFile: String) -> String {
        #"""
        [{"name": "child", "kind": "exec", "command": "/bin/sh", "stopTimeout": 30,
          "args": ["-c", "trap '' TERM; sleep 1000 & echo \"$$$$ $!\" > \#(pidFile); wait"]}]
        """#
    }

    /// A second SIGTERM exits 1 at once and takes the child's whole process group with it.
    @Test func secondStopSignalKillsEveryChildGroup() async throws {
        let directory = try TemporaryDirectory()
        let pidFile = directory.url.appendingPathComponent("pids").path
        let bus = try await RunningBus.start(bus: #"{"name": "kids", "stopTimeout": 60}"#, plugins: Self.plugins(pidFile: pidFile), in: directory)
        let pids = try await Self.readPids(pidFile)
        #expect(pids.allSatisfy(Self.isAlive))
        bus.process.signal(SIGTERM)
        #expect(await bus.process.wait { $0.stderr.contains("SIGTERM: stopping") })
        bus.process.signal(SIGTERM)
        #expect(await bus.process.exitStatus() == 1)
        #expect(bus.process.stderr.contains("killed 1 child process group"))
        #expect(await Self.waitUntilGone(pids), "children left running: \(pids.filter(Self.isAlive))")
    }

    /// After `kill -9` of the bus its direct child dies too (PR_SET_PDEATHSIG), so a restart never runs two copies.
    @Test func killedBusTakesItsChildWithIt() async throws {
        let directory = try TemporaryDirectory()
        let pidFile = directory.url.appendingPathComponent("pids").path
        let bus = try await RunningBus.start(bus: #"{"name": "kids"}"#, plugins: Self.plugins(pidFile: pidFile), in: directory)
        let pids = try await Self.readPids(pidFile)
        defer { for pid in pids { kill(pid, SIGKILL) } }
        bus.process.signal(SIGKILL)
        #expect(await bus.process.exitStatus() == 128 + SIGKILL)
        #expect(await Self.waitUntilGone([pids[0]]), "the child \(pids[0]) outlived the killed bus")
    }

    static func readPids(_ path: String) async throws -> [pid_t] {
        var pids: [pid_t] = []
        let written = await eventually(interval: .milliseconds(20)) {
            let words = ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(whereSeparator: \.isWhitespace)
            pids = words.compactMap { pid_t($0) }
            return words.count == 2 && pids.count == 2
        }
        guard written else { throw ControlE2EFailure(description: "the child never wrote its pids to \(path)") }
        return pids
    }

    /// Alive and not a zombie waiting for whoever inherited it.
    static func isAlive(_ pid: pid_t) -> Bool {
        guard kill(pid, 0) == 0, let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")")
        else { return false }
        return !stat[close...].hasPrefix(") Z")
    }

    static func waitUntilGone(_ pids: [pid_t]) async -> Bool {
        await eventually(interval: .milliseconds(20)) { !pids.contains(where: isAlive) }
    }
}
