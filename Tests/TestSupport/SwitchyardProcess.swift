import Foundation
import Synchronization
import Testing

/// The real `switchyard` executable, started as a child process with its output captured:
/// the one harness of the end-to-end and plugin process tests.
public final class SwitchyardProcess: Sendable {
    /// Where the built executable is: beside the test bundle in the build folder.
    public static let executable: URL = {
        if let override = ProcessInfo.processInfo.environment["SWITCHYARD_EXECUTABLE"] {
            return URL(fileURLWithPath: override)
        }
        let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var directory = testBinary.deletingLastPathComponent()
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent("switchyard")
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                return candidate
            }
            directory = directory.deletingLastPathComponent()
        }
        return packageRoot.appendingPathComponent(".build/debug/switchyard")
    }()

    /// The package root, where `Config/` lives.
    public static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    private let process = Process()
    private let output = CapturedOutput()
    /// The working directory made for a process started without one; removed with it.
    private let sandbox: TemporaryDirectory?

    /// Starts `switchyard` with `arguments` in `directory`; stdin is `input` (such as a
    /// ``PseudoTerminal``'s terminal side), or /dev/null; stdout is `output` when given (then
    /// ``stdout`` stays empty), else captured; stderr is `errorOutput` when given (then
    /// ``stderr`` stays empty), else captured.
    ///
    /// Without a `directory` the process runs in a fresh temporary one of its own, where
    /// `Config`, `Examples` and `Tests` lead to the package's (so `switchyard run` and relative
    /// fixture paths work) and the default data directory `.switchyard/` is the sandbox's, never
    /// the user's in the package root.
    /// - Throws: ``PackageRootRefusal`` for a `directory` inside the package root, whose
    ///   `.switchyard/` holds the user's own buses.
    public init(_ arguments: [String], directory: URL? = nil, environment: [String: String] = [:],
                input: FileHandle? = nil, output standardOutput: FileHandle? = nil, errorOutput: FileHandle? = nil) throws {
        if let directory { try PackageRootRefusal.check(directory) }
        sandbox = directory == nil ? try TemporaryDirectory.sandbox() : nil
        process.executableURL = Self.executable
        process.arguments = arguments
        process.currentDirectoryURL = directory ?? sandbox?.url
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = standardOutput ?? stdout
        process.standardError = errorOutput ?? stderr
        process.standardInput = input ?? FileHandle.nullDevice
        if standardOutput != nil { try? stdout.fileHandleForWriting.close() }
        if errorOutput != nil { try? stderr.fileHandleForWriting.close() }
        // A thread per pipe reads to end of file, so every byte the child wrote is collected
        // before `exitStatus` returns, however much it wrote just before exiting. It closes
        // its end then: Foundation keeps a `Process` (and so its pipes) until its reaper has
        // seen the child end, which can be never (``Foundation/Process/statusIfExited``), and
        // a test process holding a thousand such descriptors makes Foundation's own
        // `Process.run()` read past its buffer listing them (swift-corelibs-foundation #5472).
        for (pipe, toErrors) in [(stdout, false), (stderr, true)] {
            let handle = pipe.fileHandleForReading
            let output = self.output
            Thread {
                while true {
                    let data = handle.availableData
                    if data.isEmpty { break }
                    output.append(data, toErrors: toErrors)
                }
                try? handle.close()
                output.finishStream()
            }.start()
        }
        try process.run()
    }

    public var pid: Int32 { process.processIdentifier }
    public var stdout: String { output.text(errors: false) }
    public var stderr: String { output.text(errors: true) }
    /// Whether the process still runs: a zombie does not (see ``Foundation/Process/statusIfExited``).
    public var isRunning: Bool { !process.hasExited }

    /// Sends a signal to the process.
    public func signal(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Polls until `condition` holds for the captured output; `false` after `timeout` (scaled
    /// by `SWITCHYARD_TEST_TIMEOUT_SCALE`).
    public func wait(timeout: Duration = .seconds(30), until condition: (SwitchyardProcess) -> Bool) async -> Bool {
        let deadline = TestDeadline(after: timeout)
        while !deadline.hasPassed {
            if condition(self) { return true }
            if process.hasExited { return condition(self) }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return condition(self)
    }

    /// Waits for the process to exit and returns its exit status; kills it after `timeout`
    /// (scaled) and records an issue naming what its threads (and those of `other`, such as
    /// the bus a client talks to) were doing.
    public func exitStatus(timeout: Duration = .seconds(30), alsoDescribing other: SwitchyardProcess? = nil) async -> Int32 {
        let status: Int32
        if let exited = await process.exitStatus(within: timeout) {
            status = exited
        } else {
            let threads = Self.threads(of: pid) + (other.map { "\nand of pid \($0.pid): " + Self.threads(of: $0.pid) } ?? "")
            Issue.record("switchyard did not exit within \(TestTimeouts.scaled(timeout)); killing it. Its threads: \(threads)\nstderr:\n\(stderr)")
            status = process.signalAndWait(SIGKILL)
        }
        // Collect the last bytes; a grandchild that inherited the pipes may hold them open, so
        // wait for the end of both streams for a bounded time only.
        await eventually(timeout: .seconds(10), interval: .milliseconds(10)) { output.openStreams == 0 }
        return status
    }

    /// Each thread of process `pid` as `name state syscall` from /proc (state `D`: waiting on
    /// the disk; syscall 75: fdatasync, 7: poll, 202: futex, 232: epoll_wait), for the report
    /// of a process that did not end.
    public static func threads(of pid: pid_t) -> String {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.sorted().map { task in
            let directory = "/proc/\(pid)/task/\(task)/"
            let stat = (try? String(contentsOfFile: directory + "stat", encoding: .utf8)) ?? ""
            let name = stat.firstIndex(of: "(").flatMap { open in stat.lastIndex(of: ")").map { stat[stat.index(after: open)..<$0] } } ?? "?"
            let state = stat.lastIndex(of: ")").map { stat[$0...].dropFirst(2).prefix(1) } ?? "?"
            let call = (try? String(contentsOfFile: directory + "syscall", encoding: .utf8))?.split(separator: " ").first ?? "?"
            return "\(name) \(state) \(call)"
        }.joined(separator: ", ")
    }

    /// Whether the process has blocked SIGTERM (read from /proc), i.e. the launcher has started.
    public var hasBlockedStopSignals: Bool { Self.blocksStopSignals(pid: pid) }

    /// Whether process `pid` has SIGTERM blocked (its main thread's `SigBlk` in /proc).
    public static func blocksStopSignals(pid: pid_t) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigBlk:") }),
              let mask = UInt64(line.split(separator: "\t").last.map(String.init) ?? "", radix: 16)
        else { return false }
        return mask & (1 << UInt64(SIGTERM - 1)) != 0
    }

    /// The exit status once the process has exited by itself, waiting at most `timeout`
    /// (scaled); `nil` when it still runs (nothing is recorded or killed).
    public func exitStatusIfExited(timeout: Duration) async -> Int32? {
        await process.exitStatus(within: timeout)
    }

    /// Kills the process with SIGKILL (a power cut, as far as it can tell) and waits for it.
    public func killNow() {
        process.signalAndWait(SIGKILL)
    }

    /// Sends SIGTERM and returns the exit status, killing the process after `timeout`
    /// (scaled) and recording an issue.
    public func stop(timeout: Duration = .seconds(30)) async -> Int32 {
        let (status, killed) = await process.stop(with: SIGTERM, timeout: timeout)
        if killed { Issue.record("switchyard did not stop within \(TestTimeouts.scaled(timeout)); killed it. stderr:\n\(stderr)") }
        return status
    }

    deinit {
        if !process.hasExited { kill(process.processIdentifier, SIGKILL) }
    }
}

/// A temporary directory removed when the test ends.
public final class TemporaryDirectory: Sendable {
    public let url: URL

    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The path of `name` inside the directory.
    public func path(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }

    /// Writes `text` to `name` inside the directory and returns its path.
    @discardableResult
    public func write(_ name: String, _ text: String) throws -> String {
        let file = url.appendingPathComponent(name)
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    /// A temporary directory to run `switchyard` in: `Config`, `Examples` and `Tests` are
    /// symbolic links to the package's, read only by the commands the tests run.
    public static func sandbox() throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        for name in ["Config", "Examples", "Tests"] {
            try FileManager.default.createSymbolicLink(at: directory.url.appendingPathComponent(name),
                                                       withDestinationURL: SwitchyardProcess.packageRoot.appendingPathComponent(name))
        }
        return directory
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}

/// A test asked to run `switchyard` inside the package root: its `.switchyard/` is the user's
/// (the demo's journal, a running bus), which no test may create, lock or append to.
public struct PackageRootRefusal: Error, CustomStringConvertible {
    public let description: String

    /// Throws when `directory` is the package root or inside it.
    static func check(_ directory: URL) throws(PackageRootRefusal) {
        let root = SwitchyardProcess.packageRoot.resolvingSymlinksInPath().path
        let path = directory.resolvingSymlinksInPath().path
        guard path == root || path.hasPrefix(root + "/") else { return }
        throw PackageRootRefusal(description: "a test runs switchyard in \(path), inside the package root: "
            + "give it a TemporaryDirectory (or no directory, for a sandbox of its own)")
    }
}

/// Bytes a child wrote to stdout and stderr, collected from the pipes' handlers.
final class CapturedOutput: Sendable {
    private let data = Mutex((stdout: Data(), stderr: Data(), open: 2))

    /// Streams (stdout, stderr) not yet read to their end.
    var openStreams: Int { data.withLock { $0.open } }

    func finishStream() {
        data.withLock { $0.open -= 1 }
    }

    func append(_ bytes: Data, toErrors: Bool) {
        data.withLock { if toErrors { $0.stderr.append(bytes) } else { $0.stdout.append(bytes) } }
    }

    func text(errors: Bool) -> String {
        data.withLock { String(decoding: errors ? $0.stderr : $0.stdout, as: UTF8.self) }
    }
}
