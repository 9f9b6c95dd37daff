import Foundation
import SwitchyardBus
import SwitchyardTestSupport
import Synchronization
import Testing

/// The real `switchyard` executable running one bus (``SwitchyardProcess``), with its actions
/// read from the JSON lines its logger writes (``ActionLog``, parsed incrementally).
final class BusProcess: Sendable {
    private let process: SwitchyardProcess
    private let log: ActionLog
    /// The JSON-lines file the bus's logger writes.
    var actionLog: String { log.path }

    /// Starts `switchyard run CONFIG` in `directory`; the config's logger writes to `actionLog`.
    init(config: String, actionLog: String, directory: URL, environment: [String: String] = [:]) throws {
        log = ActionLog(path: actionLog)
        process = try SwitchyardProcess(["run", config], directory: directory, environment: environment)
    }

    /// What the bus wrote to stderr.
    var stderr: String { process.stderr }

    /// Whether the process still runs.
    var isRunning: Bool { process.isRunning }

    /// Every action the bus logged so far; a line still being written is left for later.
    var actions: [BusAction] { log.actions }

    /// Actions of `type`, in order.
    func actions(_ type: String) -> [BusAction] {
        log.actions(type)
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
        if await process.wait(timeout: timeout, until: { _ in condition(self) }) { return true }
        try? await Task.sleep(for: .milliseconds(50))
        Issue.record("\(process.isRunning ? "timed out" : "the bus exited") waiting for \(what); stderr:\n\(stderr)")
        return false
    }

    /// Kills the bus with SIGKILL (a power cut, as far as the bus can tell) and waits for it.
    func killNow() {
        process.killNow()
    }

    /// The exit status once the bus has exited by itself, waiting at most `timeout` (scaled);
    /// `nil` when it still runs.
    func exitStatus(timeout: Duration = .seconds(30)) async -> Int32? {
        await process.exitStatusIfExited(timeout: timeout)
    }

    /// Sends SIGTERM and returns the exit status, killing the bus after `timeout` (scaled).
    func stop(timeout: Duration = .seconds(30)) async -> Int32 {
        await process.stop(timeout: timeout)
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
