import Foundation
import SwitchyardTestSupport
import Testing

/// A bus process started from a configuration in a temporary directory, with its data
/// directory `data` beside it.
struct RunningBus {
    let directory: TemporaryDirectory
    let configPath: String
    let process: SwitchyardProcess
    /// Variables added to the bus's environment (for `${VAR}` in its configuration).
    var environment: [String: String] = [:]

    var socketPath: String { directory.url.appendingPathComponent("data/control.sock").path }
    var dataPath: String { directory.url.appendingPathComponent("data").path }

    /// Writes `config.json` (a `bus` object and a `plugins` array) and starts the bus on it.
    static func start(bus: String = #"{"name": "e2e"}"#, plugins: String = "[]", in directory: TemporaryDirectory? = nil,
                      environment: [String: String] = [:]) async throws -> RunningBus {
        let directory = try directory ?? TemporaryDirectory()
        var busObject = try JSONSerialization.jsonObject(with: Data(bus.utf8)) as? [String: Any] ?? [:]
        busObject["dataDirectory"] = "data"
        let busText = String(decoding: try JSONSerialization.data(withJSONObject: busObject), as: UTF8.self)
        let path = try directory.write("config.json", #"{"bus": \#(busText), "plugins": \#(plugins)}"#)
        let process = try SwitchyardProcess(["run", path], directory: directory.url, environment: environment)
        let bus = RunningBus(directory: directory, configPath: path, process: process, environment: environment)
        guard await process.wait(until: { $0.stderr.contains("ready:") }) else {
            throw ControlE2EFailure(description: "the bus did not become ready; stderr:\n\(process.stderr)")
        }
        return bus
    }

    /// Starts the bus again on the same directory and configuration.
    func restart() async throws -> RunningBus {
        let process = try SwitchyardProcess(["run", configPath], directory: directory.url, environment: environment)
        guard await process.wait(until: { $0.stderr.contains("ready:") }) else {
            throw ControlE2EFailure(description: "the bus did not become ready again; stderr:\n\(process.stderr)")
        }
        return RunningBus(directory: directory, configPath: configPath, process: process, environment: environment)
    }

    /// Runs `switchyard ARGUMENTS --config CONFIG` in the bus's directory.
    ///
    /// A client gives up by itself when the bus has not answered in 30 s, and says so; it is
    /// killed only well after that, so a slow bus shows as the client's own message, and a
    /// killed client's report names what the bus's threads were doing.
    func client(_ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
        let client = try SwitchyardProcess(arguments + ["--config", configPath], directory: directory.url, environment: environment)
        let status = await client.exitStatus(timeout: .seconds(90), alsoDescribing: process)
        return (status, client.stdout, client.stderr)
    }

    func connect() async throws -> ControlTestClient {
        let path = socketPath
        return try await onThread { try ControlTestClient(path: path) }
    }

    /// Waits until the bus counts `count` watching connections; `false` after 30 seconds (scaled).
    func waitForWatchers(_ count: Int) async throws -> Bool {
        let client = try await connect()
        return try await eventually(interval: .milliseconds(50)) {
            let stats = object(try await onThread { try client.request(#"{"op":"stats"}"#) })
            let control = (stats["stats"] as? [String: Any])?["control"] as? [String: Any]
            return (control?["watchers"] as? Int ?? 0) >= count
        }
    }

    /// Puts every thread of the bus in the idle scheduling class (threads it starts later
    /// inherit it), so a load test gives way to the other tests running beside it.
    func yieldCPU() {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(process.pid)/task")) ?? []
        for task in tasks.compactMap({ pid_t($0) }) { scheduleWhenIdle(task) }
    }

    /// Stops the bus with SIGTERM and returns its exit status.
    func stop() async -> Int32 {
        process.signal(SIGTERM)
        return await process.exitStatus()
    }

    /// The bus's resident memory in KiB, from /proc.
    var residentKiB: Int {
        guard let status = try? String(contentsOfFile: "/proc/\(process.pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return 0 }
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
}

struct ControlE2EFailure: Error, CustomStringConvertible {
    var description: String
}

/// Moves a thread (0: the calling one) to `SCHED_IDLE`: it runs only on CPU time nobody else
/// wants. A lower nice value is not enough: fifty busy threads at nice 10 still outweigh a few
/// at nice 0. (`SCHED_IDLE` is 5 on Linux; Glibc's Swift module does not export the name.)
func scheduleWhenIdle(_ thread: pid_t) {
    var parameters = sched_param()
    parameters.sched_priority = 0
    _ = sched_setscheduler(thread, 5, &parameters)
}

/// Runs blocking work on a thread of its own; with `background`, in the idle scheduling class,
/// so a load test gives way to the other tests running beside it.
func onThread<T: Sendable>(background: Bool = false, _ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            if background { scheduleWhenIdle(0) }
            continuation.resume(with: Result { try body() })
        }
        thread.stackSize = 1 << 20
        thread.start()
    }
}

/// A JSON line as an object; empty when it is not one.
func object(_ line: String) -> [String: Any] {
    (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
}

/// The integer after `"key":` in a compact JSON line, without parsing the whole line.
func integer(after key: String, in line: ArraySlice<UInt8>) -> Int? {
    let needle = Array("\"\(key)\":".utf8)
    var index = line.startIndex
    while index + needle.count <= line.endIndex {
        if line[index] == needle[0], line[index..<index + needle.count].elementsEqual(needle) {
            var value = 0
            var position = index + needle.count
            var found = false
            while position < line.endIndex, (48...57).contains(line[position]) {
                value = value * 10 + Int(line[position] - 48)
                position += 1
                found = true
            }
            return found ? value : nil
        }
        index += 1
    }
    return nil
}

/// The lines of the journal, as `switchyard journal show` prints them, parsed.
func journalActions(_ bus: RunningBus) async throws -> [[String: Any]] {
    let shown = try await bus.client(["journal", "show"])
    guard shown.status == 0 else { throw ControlE2EFailure(description: "journal show failed: \(shown.stderr)") }
    return try shown.stdout.split(separator: "\n").map { line in
        try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
    }
}
