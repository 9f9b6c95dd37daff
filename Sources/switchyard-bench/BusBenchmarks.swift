import Foundation
import SwitchyardBus
import SwitchyardIO
import SwitchyardStreams
import Synchronization

/// The `bus` benchmark cases, measured on the real `switchyard` process.
///
/// Each case starts `.build/release/switchyard` (next to this program; build it first with
/// `swift build -c release`, or name another with `SWITCHYARD_EXECUTABLE`) on a copy of
/// `Config/default.json` whose data directory is temporary, and talks to its control socket.
///
/// - `bus.control-latency.p50` / `.p99`: one client dispatches an action, a second client
///   watching that type receives it; the figure is the time from writing the request to
///   reading the watched line, one action at a time. Baseline: the same round trip through a
///   plain Unix-socket echo server in this process (write a line, read it back), the floor any
///   socket protocol pays for two context switches; the ratio is how close the bus comes to it.
/// - `bus.control-throughput`: four clients dispatch pipelined (64 requests in flight each)
///   while a watcher receives every action; the figure is actions the watcher received per
///   second. Baseline: the same clients pipelining the same lines through the echo server.
///   The default configuration's journal flushes on an interval (`fsync: interval`) and its
///   logger writes every action as a text line (to /dev/null here).
/// - `bus.control-throughput.no-logger`: the same on the default configuration without its
///   logger, so the control path, store and journal are measured without the cost of
///   formatting and writing a line per action, which a busy bus would not log.
///   Both throughput cases note the bus process's own CPU time (user and system, all its
///   threads) per action in the measured runs, which the clients' share of the two cores and
///   the neighbours' load do not move as they move the figure.
/// - `bus.control-throughput.slow-disk`: `bus.control-throughput` on a disk whose every flush
///   takes 20 ms longer (``SlowFlushLibrary``), as an SD card's may. Baseline: the same case on
///   this machine's disk; the ratio is how little a slow flush holds the bus back under
///   `fsync: interval`. Left out without `clang`.
/// - `bus.control-throughput.relay`: the same clients and watcher against ``RelayServer``, which
///   sends the bus's bytes and does none of its work; against the echo server, the ratio no bus
///   can pass with these clients on this machine.
/// - `bus.rss-idle`: the bus's resident memory after start-up with the default configuration.
///   Baseline: an idle `switchyard tail` process, the floor of the same executable.
/// - `bus.rss-1m`: the bus's resident memory after a further 1,000,000 actions; each repetition
///   adds a million to the same process, so the median shows whether memory stays flat.
///   Baseline: the same process's resident memory when idle.
func busBenchmarks() -> [BenchmarkCase] {
    stopStartedBusesAtExit()
    let session = BusBenchSession()
    return [
        BenchmarkCase(name: "bus.control-latency.p50", unit: "µs", higherIsBetter: false, target: nil,
                      measure: { await session.latency().p50 }, baseline: { await session.echoLatency().p50 }),
        BenchmarkCase(name: "bus.control-latency.p99", unit: "µs", higherIsBetter: false, target: 1000,
                      measure: { await session.latency().p99 }, baseline: { await session.echoLatency().p99 }),
        BenchmarkCase(name: "bus.control-throughput", unit: "actions/s", ratioTarget: 0.5,
                      measure: { await session.throughput(actions: 200_000) }, baseline: { await session.echoThroughput(lines: 200_000) },
                      note: { session.loggerCPU.note }),
        BenchmarkCase(name: "bus.control-throughput.no-logger", unit: "actions/s",
                      measure: { await session.quietThroughput(actions: 200_000) }, baseline: { await session.echoThroughput(lines: 200_000) },
                      note: { session.quietCPU.note }),
        BenchmarkCase(name: "bus.control-throughput.slow-disk", unit: "actions/s",
                      measure: { await session.slowDiskThroughput(actions: 200_000) },
                      baseline: { await session.throughput(actions: 200_000, recordingCPU: false) }),
        BenchmarkCase(name: "bus.control-throughput.relay", unit: "lines/s",
                      measure: { await session.relayThroughput(lines: 200_000) }, baseline: { await session.echoThroughput(lines: 200_000) }),
        BenchmarkCase(name: "bus.rss-idle", unit: "MB", higherIsBetter: false, target: 30,
                      measure: { await session.idleResident() }, baseline: { await session.clientResident() }),
        BenchmarkCase(name: "bus.rss-1m", unit: "MB", higherIsBetter: false, target: 30,
                      measure: { await session.residentAfter(actions: 1_000_000) }, baseline: { await session.idleResidentOfLoaded() }),
    ]
}

// MARK: The bus process

/// The bus processes this run started, stopped when the program exits.
private let startedBuses = Mutex<[(pid: Int32, directory: String)]>([])
/// Other temporary directories, removed when the program exits.
private let temporaryDirectories = Mutex<[String]>([])

private func stopStartedBusesAtExit() {
    atexit {
        for (pid, directory) in startedBuses.withLock({ $0 }) {
            kill(pid, SIGTERM)
            try? FileManager.default.removeItem(atPath: directory)
        }
        for directory in temporaryDirectories.withLock({ $0 }) {
            try? FileManager.default.removeItem(atPath: directory)
        }
    }
}

/// Removes `directory` when the program exits.
func removeAtExit(_ directory: String) {
    temporaryDirectories.withLock { $0.append(directory) }
}

/// One bus process per case kind, started on first use and shared by its repetitions.
private final class BusBenchSession: Sendable {
    private let latencyBus = Mutex<BenchBus?>(nil)
    private let loadedBus = Mutex<BenchBus?>(nil)
    private let quietBus = Mutex<BenchBus?>(nil)
    private let slowDiskBus = Mutex<BenchBus?>(nil)
    private let echo = Mutex<EchoServer?>(nil)
    private let relay = Mutex<RelayServer?>(nil)
    private let samples = 20_000
    /// The bus's CPU per action in `bus.control-throughput` and in its `.no-logger` case.
    let loggerCPU = CPUPerAction()
    let quietCPU = CPUPerAction()

    /// What `slot` holds, started with `start` on first use.
    private func started<Value>(_ slot: borrowing Mutex<Value?>, _ start: () -> Value) -> Value {
        slot.withLock { value in
            if let value { return value }
            let started = start()
            value = started
            return started
        }
    }

    private func bus(_ slot: borrowing Mutex<BenchBus?>, configuration: Data? = nil, environment: [String: String] = [:]) -> BenchBus {
        started(slot) { BenchBus.start(configuration: configuration, environment: environment) }
    }

    private var echoServer: EchoServer { started(echo) { EchoServer() } }

    func latency() async -> Percentiles {
        let bus = bus(latencyBus)
        return await onThread { bus.measureLatency(samples: self.samples) }
    }

    func echoLatency() async -> Percentiles {
        let server = echoServer
        return await onThread { server.measureLatency(samples: self.samples) }
    }

    /// `recordingCPU`: whether the run counts in `bus.control-throughput`'s CPU note (not when
    /// it is another case's baseline).
    func throughput(actions: Int, recordingCPU: Bool = true) async -> Double {
        let bus = bus(latencyBus)
        return await onThread { bus.measureThroughput(actions: actions, clients: 4, cpu: recordingCPU ? self.loggerCPU : nil) }
    }

    func quietThroughput(actions: Int) async -> Double {
        let bus = bus(quietBus, configuration: BenchBus.defaultConfigurationWithoutLogger())
        return await onThread { bus.measureThroughput(actions: actions, clients: 4, cpu: self.quietCPU) }
    }

    /// 0 when the slow-flush library cannot be built (the case then says why).
    func slowDiskThroughput(actions: Int) async -> Double {
        guard let environment = SlowFlushLibrary.environment else { return 0 }
        let bus = bus(slowDiskBus, environment: environment)
        return await onThread { bus.measureThroughput(actions: actions, clients: 4) }
    }

    func relayThroughput(lines: Int) async -> Double {
        let server = started(relay) { RelayServer() }
        return await onThread { server.measureThroughput(lines: lines, clients: 4) }
    }

    func echoThroughput(lines: Int) async -> Double {
        let server = echoServer
        return await onThread { server.measureThroughput(lines: lines, clients: 4) }
    }

    func idleResident() async -> Double {
        await onThread {
            let bus = BenchBus.start()
            defer { bus.stop() }
            Thread.sleep(forTimeInterval: 1)
            return bus.residentMB
        }
    }

    func clientResident() async -> Double {
        let bus = bus(latencyBus)
        return await onThread { Self.idleClientResident(socketPath: bus.socketPath) }
    }

    private static func idleClientResident(socketPath: String) -> Double {
        let tail = Process()
        tail.executableURL = BenchBus.executable
        tail.arguments = ["tail", "--socket", socketPath]
        tail.standardOutput = FileHandle.nullDevice
        tail.standardError = FileHandle.nullDevice
        try? tail.run()
        Thread.sleep(forTimeInterval: 1)
        let resident = residentMegabytes(of: tail.processIdentifier)
        tail.terminate()
        tail.waitUntilExit()
        return resident
    }

    func residentAfter(actions: Int) async -> Double {
        let bus = bus(loadedBus)
        return await onThread {
            _ = bus.measureThroughput(actions: actions, clients: 4)
            return bus.residentMB
        }
    }

    func idleResidentOfLoaded() async -> Double {
        bus(loadedBus).idleMB
    }
}

/// A `switchyard run` process on a temporary copy of the default configuration.
final class BenchBus: Sendable {
    static let executable: URL = {
        if let path = ProcessInfo.processInfo.environment["SWITCHYARD_EXECUTABLE"] { return URL(fileURLWithPath: path) }
        return URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("switchyard")
    }()

    let directory: String
    let socketPath: String
    let idleMB: Double
    private let process: Process

    private init(directory: String, process: Process, idleMB: Double) {
        self.directory = directory
        self.socketPath = directory + "/data/control.sock"
        self.process = process
        self.idleMB = idleMB
    }

    /// Starts the bus on `configuration` (a JSON document whose `bus.dataDirectory` is replaced),
    /// or on the default configuration, with `environment` added to this program's.
    static func start(configuration: Data? = nil, environment: [String: String] = [:]) -> BenchBus {
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            print("switchyard-bench: \(executable.path) is missing; build it first with `swift build -c release`")
            exit(1)
        }
        var template = Array("/tmp/sy-bench-XXXXXX".utf8CString)
        let directory = String(cString: mkdtemp(&template))
        // A configuration's input files resolve against its own folder: the copy finds the
        // default configuration's GPX route where the original does.
        try? FileManager.default.createSymbolicLink(atPath: directory + "/routes",
                                                    withDestinationPath: FileManager.default.currentDirectoryPath + "/Config/routes")
        _ = FileManager.default.createFile(atPath: directory + "/config.json", contents: configuration.map { withDataDirectory($0, directory + "/data") }
                                         ?? defaultConfiguration(dataDirectory: directory + "/data"))
        let process = Process()
        process.executableURL = executable
        process.arguments = ["run", directory + "/config.json"]
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new } }
        // The package root, so the default configuration's relative paths (its GPX route) resolve.
        process.currentDirectoryURL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            print("switchyard-bench: cannot start \(executable.path): \(error)")
            exit(1)
        }
        startedBuses.withLock { $0.append((process.processIdentifier, directory)) }
        let socketPath = directory + "/data/control.sock"
        for _ in 0..<500 where (try? SocketLine(path: socketPath)) == nil {
            Thread.sleep(forTimeInterval: 0.02)
        }
        Thread.sleep(forTimeInterval: 0.2)
        return BenchBus(directory: directory, process: process, idleMB: residentMegabytes(of: process.processIdentifier))
    }

    private static func withDataDirectory(_ configuration: Data, _ dataDirectory: String) -> Data {
        guard var document = try? JSONSerialization.jsonObject(with: configuration) as? [String: Any] else {
            print("switchyard-bench: a benchmark configuration is not a JSON object")
            exit(1)
        }
        var bus = document["bus"] as? [String: Any] ?? [:]
        bus["dataDirectory"] = dataDirectory
        document["bus"] = bus
        return (try? JSONSerialization.data(withJSONObject: document)) ?? configuration
    }

    /// `Config/default.json` (run the bench from the package root, as `swift run` does) with its
    /// data directory moved to `dataDirectory`; without it, a timer and a logger.
    private static func defaultConfiguration(dataDirectory: String) -> Data {
        if let data = FileManager.default.contents(atPath: "Config/default.json"),
           var document = try? JSONSerialization.jsonObject(with: data) as? [String: Any] {
            var bus = document["bus"] as? [String: Any] ?? [:]
            bus["dataDirectory"] = dataDirectory
            document["bus"] = bus
            if let rewritten = try? JSONSerialization.data(withJSONObject: document) { return rewritten }
        }
        print("switchyard-bench: Config/default.json not found here; the bus runs a timer and a logger instead")
        return Data("""
            {"bus": {"name": "bench", "dataDirectory": "\(dataDirectory)"},
             "plugins": [{"name": "clock", "kind": "timer", "interval": 1, "type": "clock/tick"},
                         {"name": "log", "kind": "logger", "format": "text", "actions": "*"}]}
            """.utf8)
    }

    /// `Config/default.json` without its logger plugins; `nil` (the default configuration) when
    /// it cannot be read.
    static func defaultConfigurationWithoutLogger() -> Data? {
        guard let data = FileManager.default.contents(atPath: "Config/default.json"),
              var document = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let plugins = document["plugins"] as? [[String: Any]]
        else { return nil }
        document["plugins"] = plugins.filter { $0["kind"] as? String != "logger" }
        return try? JSONSerialization.data(withJSONObject: document)
    }

    var residentMB: Double { residentMegabytes(of: process.processIdentifier) }

    /// The bus process's id, for its CPU time (``CPUPerAction/processTime(of:)``).
    var processID: Int32 { process.processIdentifier }

    func stop() {
        process.terminate()
        process.waitUntilExit()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// One action at a time: write the dispatch, read it on the watcher, then read the reply.
    func measureLatency(samples: Int) -> Percentiles {
        guard let watcher = try? SocketLine(path: socketPath), let dispatcher = try? SocketLine(path: socketPath) else { return .failed }
        watcher.write(Array(#"{"op":"watch","actions":"bench/*"}"#.utf8) + [10])
        _ = watcher.readLine()
        let request = Array(#"{"op":"dispatch","action":{"type":"bench/ping","payload":1}}"#.utf8) + [10]
        var times: [Double] = []
        times.reserveCapacity(samples)
        let clock = ContinuousClock()
        for _ in 0..<samples {
            let start = clock.now
            dispatcher.write(request)
            guard watcher.readLine() != nil else { return .failed }
            times.append((clock.now - start).microseconds)
            guard dispatcher.readLine() != nil else { return .failed }
        }
        return Percentiles(times)
    }

    /// Actions received by a watcher per second while `clients` dispatch, pipelined; records the
    /// bus process's CPU time for them in `cpu`.
    func measureThroughput(actions: Int, clients: Int, cpu: CPUPerAction? = nil) -> Double {
        let cpuBefore = CPUPerAction.processTime(of: process.processIdentifier)
        guard let run = watchedThroughput(socketPath: socketPath, actions: actions, clients: clients) else { return 0 }
        cpu?.record(CPUPerAction.processTime(of: process.processIdentifier) - cpuBefore, actions: run.received)
        return Double(run.received) / run.seconds
    }
}

/// Watches `load/*` on the control socket at `socketPath` while `clients` connections dispatch
/// `actions` `load/n` actions between them, each keeping 64 unanswered; returns how many the
/// watcher received and the seconds from the first dispatch to the last reply. `nil` when the
/// watcher cannot connect.
func watchedThroughput(socketPath: String, actions: Int, clients: Int) -> (received: Int, seconds: Double)? {
    guard let watcher = try? SocketLine(path: socketPath) else { return nil }
    watcher.write(Array(#"{"op":"watch","actions":"load/*"}"#.utf8) + [10])
    _ = watcher.readLine()
    let request = Array(#"{"op":"dispatch","action":{"type":"load/n","payload":{"n":1}}}"#.utf8) + [10]
    let perClient = actions / clients
    let clock = ContinuousClock()
    let start = clock.now
    let group = DispatchGroup()
    for _ in 0..<clients {
        group.enter()
        Thread {
            defer { group.leave() }
            guard let client = try? SocketLine(path: socketPath) else { return }
            pipeline(client, request: request, count: perClient, window: 64)
        }.start()
    }
    var received = 0
    while received < perClient * clients, watcher.readLine() != nil { received += 1 }
    group.wait()
    return (received, (clock.now - start).secondsValue)
}

/// Writes `count` requests keeping `window` unanswered, and reads every reply.
func pipeline(_ client: SocketLine, request: [UInt8], count: Int, window: Int) {
    var sent = 0
    var answered = 0
    while answered < count {
        var batch: [UInt8] = []
        while sent < count, sent - answered < window {
            batch.append(contentsOf: request)
            sent += 1
        }
        if !batch.isEmpty { client.write(batch) }
        guard client.readLine() != nil else { return }
        answered += 1
    }
}

// MARK: The baseline: a plain Unix-socket echo server

/// Echoes every byte back on each connection, one thread per connection.
private final class EchoServer: Sendable {
    let path: String

    init() {
        path = serveUnixSocket(named: "echo") { connection in
            var buffer = [UInt8](repeating: 0, count: 64 << 10)
            while true {
                let count = recv(connection, &buffer, buffer.count, 0)
                guard count > 0 else { break }
                var offset = 0
                while offset < count {
                    let sent = buffer[offset..<count].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                    guard sent > 0 else { break }
                    offset += sent
                }
            }
            close(connection)
        }
    }

    func measureLatency(samples: Int) -> Percentiles {
        guard let client = try? SocketLine(path: path) else { return .failed }
        let line = Array(#"{"op":"dispatch","action":{"type":"bench/ping","payload":1}}"#.utf8) + [10]
        var times: [Double] = []
        let clock = ContinuousClock()
        for _ in 0..<samples {
            let start = clock.now
            client.write(line)
            guard client.readLine() != nil else { return .failed }
            times.append((clock.now - start).microseconds)
        }
        return Percentiles(times)
    }

    func measureThroughput(lines: Int, clients: Int) -> Double {
        let line = Array(#"{"op":"dispatch","action":{"type":"load/n","payload":{"n":1}}}"#.utf8) + [10]
        let clock = ContinuousClock()
        let start = clock.now
        let group = DispatchGroup()
        for _ in 0..<clients {
            group.enter()
            let thread = Thread { [path] in
                defer { group.leave() }
                guard let client = try? SocketLine(path: path) else { return }
                pipeline(client, request: line, count: lines / clients, window: 64)
            }
            thread.start()
        }
        group.wait()
        return Double(lines) / (clock.now - start).secondsValue
    }
}

// MARK: Small helpers

/// Listens on a new Unix socket in a temporary directory and runs `serve` on a thread of its own
/// for each connection; returns the socket's path.
func serveUnixSocket(named name: String, _ serve: @escaping @Sendable (Int32) -> Void) -> String {
    var template = Array("/tmp/sy-\(name)-XXXXXX".utf8CString)
    let path = String(cString: mkdtemp(&template)) + "/\(name).sock"
    let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    _ = try? UnixAddress.with(path) { address, length in bind(listener, address, length) }
    listen(listener, 64)
    Thread {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            Thread { serve(connection) }.start()
        }
    }.start()
    return path
}

/// A blocking, line-reading Unix-socket client.
final class SocketLine {
    private let descriptor: Int32
    private var buffer = [UInt8](repeating: 0, count: 256 << 10)
    private var start = 0
    private var end = 0

    struct Failure: Error {}

    init(path: String) throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        let connected = try? UnixAddress.with(path) { address, length in connect(descriptor, address, length) }
        guard connected == 0 else {
            close(descriptor)
            throw Failure()
        }
    }

    deinit {
        close(descriptor)
    }

    func write(_ bytes: [UInt8]) {
        sendAll(bytes, to: descriptor)
    }

    /// The length of the next line (its bytes are skipped); `nil` at the end of the stream.
    func readLine() -> Int? {
        while true {
            let newline = buffer.withUnsafeBytes { bytes in
                memchr(bytes.baseAddress! + start, 10, end - start).map { UnsafeRawPointer($0) - bytes.baseAddress! }
            }
            if let newline {
                defer { start = newline + 1 }
                return newline - start
            }
            if start == end {
                start = 0
                end = 0
            } else if end == buffer.count {
                buffer.replaceSubrange(0..<(end - start), with: buffer[start..<end])
                end -= start
                start = 0
                if end == buffer.count { buffer.append(contentsOf: repeatElement(0, count: buffer.count)) }
            }
            // Through the whole array, not a slice of it: a mutable slice of the buffer is a copy
            // of everything after `end`, which made each read cost a 256 KB memmove.
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress! + end, $0.count - end, 0) }
            guard count > 0 else { return nil }
            end += count
        }
    }
}

/// The median and 99th percentile of a sample, in its unit.
struct Percentiles: Sendable {
    var p50: Double
    var p99: Double

    static let failed = Percentiles(p50: .infinity, p99: .infinity)

    init(p50: Double, p99: Double) {
        self.p50 = p50
        self.p99 = p99
    }

    init(_ samples: [Double]) {
        let sorted = samples.sorted()
        p50 = sorted.isEmpty ? .infinity : sorted[sorted.count / 2]
        p99 = sorted.isEmpty ? .infinity : sorted[min(sorted.count - 1, sorted.count * 99 / 100)]
    }
}

/// The resident memory of a process in MB, from /proc.
private func residentMegabytes(of pid: Int32) -> Double {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
          let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "")
    else { return 0 }
    return kilobytes / 1024
}

extension Duration {
    var microseconds: Double { secondsValue * 1e6 }
}
