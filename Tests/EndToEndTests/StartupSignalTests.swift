import Foundation
import SwitchyardTestSupport
import Testing

/// A stop signal at any moment after `exec` stops the bus cleanly (exit 0) when it is started
/// as the systemd unit starts it: `switchyard-launcher` blocks the signals before the dynamic
/// loader maps the Swift program's libraries.
@Suite(.serialized)
struct StartupSignalTests {
    /// The static launcher beside the `switchyard` under test.
    static let launcher = SwitchyardProcess.executable.deletingLastPathComponent().appendingPathComponent("switchyard-launcher")

    /// How far into its start each round sends SIGTERM, as CPU time the child has run since it
    /// was spawned, in microseconds: dense where the dynamic loader works (about 25 ms of CPU
    /// for the Swift program's libraries), every value twice.
    ///
    /// CPU time, not wall time: on a loaded machine a freshly spawned process may wait tens of
    /// milliseconds for a core, so "5 ms after spawn" says nothing about how far it got.
    static let cpuDelays: [Int] = Array(repeating: [0, 0, 100, 250, 500, 1_000, 2_000, 5_000, 8_000, 12_000, 20_000, 30_000], count: 2)
        .flatMap { $0 }

    /// A process that ran this much CPU since its spawn without blocking SIGTERM has run code
    /// of its own unprotected: the launcher blocks it within about 0.5 ms (mostly the kernel's
    /// exec), the Swift program started directly only after about 25 ms.
    static let unprotectedCPU = 5_000

    /// SIGTERM at 0–30 ms of the child's CPU time after spawn, in 24 rounds, ends every bus with exit 0 and "SIGTERM: stopping".
    @Test(.scaledTimeLimit(minutes: 15)) func sigtermAtAnyMomentAfterExecStopsCleanly() async throws {
        let directory = try TemporaryDirectory()
        let config = try directory.write("early.json", """
            {"bus": {"name": "early", "dataDirectory": "\(directory.url.appendingPathComponent("data").path)"},
             "plugins": [{"name": "tick", "kind": "timer", "interval": 60}]}
            """)
        var settled = 0
        for delay in Self.cpuDelays where try await Self.settledRound(cpuDelay: delay, config: config, in: directory) {
            settled += 1
        }
        // Every round from 5 ms of CPU on is settled by definition; the early ones mostly are.
        #expect(settled >= Self.cpuDelays.filter { $0 >= Self.unprotectedCPU }.count)
    }

    /// The launcher without `switchyard` beside it exits 1 and names the file it looked for.
    @Test func launcherWithoutBusProgramExits1() async throws {
        let directory = try TemporaryDirectory()
        let lonely = directory.url.appendingPathComponent("switchyard-launcher")
        try FileManager.default.copyItem(at: Self.launcher, to: lonely)
        let process = Process()
        process.executableURL = lonely
        process.arguments = ["--version"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 1)
        let expected = lonely.resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("switchyard").path
        #expect(message.contains("cannot run the bus program \(expected): No such file or directory"), "\(message)")
    }

    /// Runs rounds at `cpuDelay` until one is settled, and checks that round's outcome.
    /// Returns `false` when no round settled.
    ///
    /// A signal sent before the new program's first instruction runs has its default action
    /// whatever the program does: `posix_spawn` returns once the child has replaced its image
    /// (glibc spawns with CLONE_VFORK), but the kernel still maps the program and returns to
    /// user space after that, and under load the child may wait a long time for a core in
    /// between. So a round reads, just before it sends SIGTERM, the child's blocked set
    /// (`SigBlk` in /proc) and its CPU time (/proc/PID/schedstat). It is settled, and its
    /// outcome must be exit 0, when SIGTERM was blocked or the child had run
    /// ``unprotectedCPU`` without blocking it; otherwise it may have come before any code ran
    /// and the round is tried again. The Swift program started directly runs about 25 ms of
    /// CPU unprotected, so every round from 5 ms on kills it and the test fails.
    static func settledRound(cpuDelay: Int, config: String, in directory: TemporaryDirectory) async throws -> Bool {
        for _ in 0..<12 {
            // Starting a round spins (sched_yield) until the child has used its CPU time: on a
            // thread of its own, so it never holds one of the few cooperative threads every
            // other test in this process needs.
            let round = try await onThread {
                try EarlySignalRound(executable: launcher.path, cpuDelayMicroseconds: cpuDelay, arguments: ["run", config], directory: directory)
            }
            let status = await round.exitStatus()
            guard round.blockedBeforeSignal || round.cpuBeforeSignal >= unprotectedCPU else { continue }
            let output = round.output
            let moment = "SIGTERM after \(round.cpuBeforeSignal) µs of CPU (SIGTERM \(round.blockedBeforeSignal ? "" : "not ")blocked)"
            #expect(status == .exited(0), "\(moment): \(status), output:\n\(output)")
            #expect(output.contains("SIGTERM: stopping"), "\(moment) was not taken by the bus:\n\(output)")
            return true
        }
        return false
    }
}

/// One `executable` (`switchyard-launcher`) started with `posix_spawn` (default signal dispositions, nothing blocked:
/// as a shell starts it) and sent SIGTERM once it has run a set CPU time.
struct EarlySignalRound {
    enum Status: Equatable, CustomStringConvertible {
        case exited(Int32)
        case signalled(Int32)
        case hung

        var description: String {
            switch self {
            case .exited(let code): "exit \(code)"
            case .signalled(let signal): "killed by signal \(signal)"
            case .hung: "did not exit"
            }
        }
    }

    let pid: pid_t
    /// Whether SIGTERM was blocked in the child just before it was sent.
    let blockedBeforeSignal: Bool
    /// The CPU time the child had run since its spawn just before the signal, in microseconds.
    let cpuBeforeSignal: Int
    private let outputPath: String

    init(executable: String, cpuDelayMicroseconds: Int, arguments: [String], directory: TemporaryDirectory) throws {
        outputPath = directory.url.appendingPathComponent("round.log").path
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        try ProcessSpawner.closeInheritedDescriptors(from: 3, in: &actions)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var nothing = sigset_t()
        sigemptyset(&nothing)
        posix_spawnattr_setsigmask(&attributes, &nothing)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, executable, &actions, &attributes, argv, environ)
        guard spawned == 0 else {
            throw ControlE2EFailure(description: "posix_spawn \(executable): \(String(cString: strerror(spawned)))")
        }
        pid = child
        // The signal must reach the program, not the forked copy of this test: wait until the
        // child's image is no longer this test's.
        let ownImage = Self.image(of: "self")
        let deadline = TestDeadline(after: .seconds(30))
        while Self.image(of: "\(child)") == ownImage, !deadline.hasPassed { sched_yield() }
        // A child that stops using the CPU (started and idle) gets the signal anyway.
        let running = TestDeadline(after: .seconds(10))
        while Self.cpuMicroseconds(of: child) < cpuDelayMicroseconds, !running.hasPassed { sched_yield() }
        blockedBeforeSignal = SwitchyardProcess.blocksStopSignals(pid: child)
        cpuBeforeSignal = Self.cpuMicroseconds(of: child)
        kill(child, SIGTERM)
    }

    /// The child's output (stdout and stderr interleaved).
    var output: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }

    /// Waits for the child to exit; kills it after 30 s (scaled).
    func exitStatus() async -> Status {
        var status: Int32 = 0
        let reaped = await eventually(interval: .milliseconds(5)) { waitpid(pid, &status, WNOHANG) == pid }
        guard reaped else {
            kill(pid, SIGKILL)
            waitpid(pid, &status, 0)
            return .hung
        }
        // WIFEXITED/WEXITSTATUS/WTERMSIG are macros Swift does not import.
        return status & 0x7f == 0 ? .exited((status >> 8) & 0xff) : .signalled(status & 0x7f)
    }

    /// The CPU time `pid` has run (the first field of /proc/PID/schedstat is nanoseconds).
    private static func cpuMicroseconds(of pid: pid_t) -> Int {
        let text = (try? String(contentsOfFile: "/proc/\(pid)/schedstat", encoding: .utf8)) ?? ""
        return (text.split(separator: " ").first.flatMap { Int($0) } ?? 0) / 1000
    }

    private static func image(of process: String) -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(process)/exe")) ?? ""
    }
}
