import Foundation
import Switchyard
import SwitchyardTestSupport
import Synchronization
import Testing

/// The real `switchyard` executable running one bus, with its output captured and its
/// actions read from the JSON lines its logger writes.
final class BusProcess: Sendable {
    /// Where the built executable is: beside the test bundle in the build folder.
    static let executable: URL = {
        if let override = ProcessInfo.processInfo.environment["SWITCHYARD_EXECUTABLE"] {
            return URL(fileURLWithPath: override)
        }
        var directory = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
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
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    private let process = Process()
    private let errors = CapturedBytes()
    /// The JSON-lines file the bus's logger writes.
    let actionLog: String

    /// Starts `switchyard run CONFIG` in `directory`; the config's logger writes to `actionLog`.
    init(config: String, actionLog: String, directory: URL, environment: [String: String] = [:]) throws {
        self.actionLog = actionLog
        process.executableURL = Self.executable
        process.arguments = ["run", config]
        process.currentDirectoryURL = directory
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let pipe = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        let errors = self.errors
        pipe.fileHandleForReading.readabilityHandler = { handle in
            errors.append(handle.availableData)
        }
        try process.run()
    }

    /// What the bus wrote to stderr.
    var stderr: String { errors.text }

    /// Whether the process still runs.
    var isRunning: Bool { process.isRunning }

    /// Every action the bus logged so far; a line still being written is skipped.
    var actions: [BusAction] {
        guard let text = try? String(contentsOfFile: actionLog, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            guard let json = try? JSON(parsing: String(line)) else { return nil }
            return try? BusAction(json: json, defaultSource: "?")
        }
    }

    /// Actions of `type`, in order.
    func actions(_ type: String) -> [BusAction] {
        actions.filter { $0.type == type }
    }

    /// The `n` members of the payloads of `type` actions from `source`, in order.
    func numbers(_ type: String, source: String) -> [Int] {
        actions(type).filter { $0.source == source }.compactMap { $0.payload["n"]?.intValue }
    }

    /// The statuses `fleet/status` reported, in order.
    var statuses: [String] {
        actions("fleet/status").compactMap { $0.payload["status"]?.stringValue }
    }

    /// Polls until `condition` holds; records an issue with the bus's stderr after `timeout`
    /// (scaled by `SWITCHYARD_TEST_TIMEOUT_SCALE`).
    @discardableResult
    func wait(_ what: String, timeout: Duration = .seconds(30), until condition: (BusProcess) -> Bool) async -> Bool {
        let deadline = TestDeadline(after: timeout)
        while !deadline.hasPassed, process.isRunning {
            if condition(self) { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        if condition(self) { return true }
        try? await Task.sleep(for: .milliseconds(50))
        Issue.record("\(process.isRunning ? "timed out" : "the bus exited") waiting for \(what); stderr:\n\(stderr)")
        return false
    }

    /// Kills the bus with SIGKILL (a power cut, as far as the bus can tell) and waits for it.
    func killNow() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// The exit status once the bus has exited by itself, waiting at most `timeout` (scaled);
    /// `nil` when it still runs.
    func exitStatus(timeout: Duration = .seconds(30)) async -> Int32? {
        await eventually(timeout: timeout, interval: .milliseconds(20)) { !process.isRunning }
        guard !process.isRunning else { return nil }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Sends SIGTERM and returns the exit status, killing the bus after `timeout` (scaled).
    func stop(timeout: Duration = .seconds(30)) async -> Int32 {
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
        await eventually(timeout: timeout, interval: .milliseconds(20)) { !process.isRunning }
        if process.isRunning {
            Issue.record("switchyard did not stop within \(TestTimeouts.scaled(timeout)); stderr:\n\(stderr)")
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        return process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}

/// A temporary directory removed when the test ends.
final class TemporaryDirectory: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-nats-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The path of `name` inside the directory.
    func path(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }

    /// Writes `text` to `name` inside the directory and returns its path.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        try text.write(toFile: path(name), atomically: true, encoding: .utf8)
        return path(name)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}

/// Bytes a child wrote, collected from a pipe's handler.
final class CapturedBytes: Sendable {
    private let data = Mutex(Data())

    func append(_ bytes: Data) {
        data.withLock { $0.append(bytes) }
    }

    var text: String {
        data.withLock { String(decoding: $0, as: UTF8.self) }
    }
}
