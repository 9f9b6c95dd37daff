import Foundation
import SwitchyardTestSupport
import Testing

/// Out of file descriptors or full of idle connections, the control socket still answers
/// every client and never locks anyone out for good.
@Suite(.serialized)
struct ControlConnectionLimitTests {
    /// With its descriptor limit at 32 and 40 clients, every client gets a line (too-many-clients or idle-timeout), the loop does not spin, and a later client is served.
    @Test func outOfDescriptorsAnswersEveryClient() async throws {
        let bus = try await RunningBus.start(bus: #"{"name": "fds", "control": {"idleTimeout": 3}}"#)
        let limit = Process()
        limit.executableURL = URL(fileURLWithPath: "/usr/bin/prlimit")
        limit.arguments = ["--pid", "\(bus.process.pid)", "--nofile=32:32"]
        try limit.run()
        limit.waitUntilExit()
        #expect(limit.terminationStatus == 0)
        let socket = bus.socketPath
        let clients = try await onThread { try (0..<40).map { _ in try ControlTestClient(path: socket) } }
        let cpuBefore = Self.cpuTicks(bus.process.pid)
        let started = ContinuousClock.now
        let replies = try await onThread { try clients.map { try $0.readLine(timeout: .seconds(60)) ?? "" } }.map(object)
        let elapsed = ContinuousClock.now - started
        let codes = replies.map { ($0["error"] as? [String: Any])?["code"] as? String ?? "none" }
        #expect(codes.allSatisfy { $0 == "too-many-clients" || $0 == "idle-timeout" }, "\(codes)\nbus:\n\(bus.process.stderr)")
        #expect(codes.contains("too-many-clients"))
        // A loop spinning on a ready listener burns a whole core; this one waits.
        let busySeconds = Double(Self.cpuTicks(bus.process.pid) - cpuBefore) / Double(sysconf(Int32(_SC_CLK_TCK)))
        #expect(busySeconds < 0.5 * (Double(elapsed.components.seconds) + 1), "the bus used \(busySeconds) s of CPU in \(elapsed)")
        let stats = try await bus.client(["stats", "--json"])
        #expect(stats.status == 0, "\(stats.stderr)")
        #expect(await bus.stop() == 0, "\(bus.process.stderr)")
    }

    /// Idle connections filling the client limit are closed after the idle timeout with idle-timeout; a watcher is exempt; new clients are served again.
    @Test func idleConnectionsAreClosedButWatchersStay() async throws {
        // The idle connections must all be open before the first of them times out, and a
        // loaded machine took over 10 s to open 255: the timeout is far above that.
        let idleTimeout = Int(30 * TestTimeouts.scale)
        let bus = try await RunningBus.start(bus: #"{"name": "idle", "control": {"idleTimeout": \#(idleTimeout)}}"#)
        let watcher = try await bus.connect()
        try watcher.write(#"{"op":"watch","actions":"note/*"}"# + "\n")
        #expect(object(try await onThread { try watcher.readLine() } ?? "")["ok"] as? Bool == true)
        let socket = bus.socketPath
        let idle = try await onThread { try (0..<255).map { _ in try ControlTestClient(path: socket) } }
        let extra = try await onThread { try ControlTestClient(path: socket) }
        let refused = object(try await onThread { try extra.readLine() } ?? "")
        #expect((refused["error"] as? [String: Any])?["code"] as? String == "too-many-clients", "\(refused)")
        let closed = try await onThread { try idle.map { try $0.readLine(timeout: .seconds(60 + idleTimeout)) ?? "" } }.map(object)
        #expect(closed.allSatisfy { ($0["error"] as? [String: Any])?["code"] as? String == "idle-timeout" })
        let sent = try await bus.client(["send", "note/after", #"{"n": 1}"#])
        #expect(sent.status == 0, "\(sent.stderr)")
        let seen = try await onThread { try watcher.readLine() } ?? ""
        #expect(seen.contains(#""type":"note/after""#), "\(seen)")
        let stats = object(try await onThread { try ControlTestClient(path: socket).request(#"{"op":"stats"}"#) })
        let control = (stats["stats"] as? [String: Any])?["control"] as? [String: Any]
        #expect(control?["idleClosed"] as? Int ?? 0 >= 255, "\(stats)")
        #expect(await bus.stop() == 0)
    }

    /// User and system CPU time of `pid` in clock ticks.
    static func cpuTicks(_ pid: Int32) -> Int {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")")
        else { return 0 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)
    }
}
