import Foundation
import SwitchyardIO
import Synchronization

/// The `http` benchmark cases, measured on the real `switchyard` process serving HTTP.
///
/// - `http.metrics-scrape`: the time of one `GET /metrics` (request written to the whole body
///   read, on one keep-alive connection) with 50 plugins configured; the median of 200 scrapes.
///   Baseline: `GET /healthz` on the same connection, the floor of any request.
/// - `http.sse-feed`: actions a control watcher receives per second while four clients dispatch
///   pipelined (as `bus.control-throughput`) and an `/api/actions` Server-Sent Events client
///   reads every one of them. Baseline: the same load with no SSE client. The note says whether
///   the SSE client kept up in every run (received every action, never dropped).
/// - `http.scrubbing`: see ``scrubbingBenchmark()``.
func httpBenchmarks() -> [BenchmarkCase] {
    let session = HTTPBenchSession()
    return [
        BenchmarkCase(name: "http.metrics-scrape", unit: "ms", higherIsBetter: false, target: 5,
                      measure: { await session.scrape("/metrics") }, baseline: { await session.scrape("/healthz") },
                      note: { session.metricsNote() }),
        scrubbingBenchmark(),
        BenchmarkCase(name: "http.sse-feed", unit: "actions/s", ratioTarget: 0.9,
                      measure: { await session.feed(actions: 100_000, withStream: true) },
                      baseline: { await session.feed(actions: 100_000, withStream: false) },
                      note: { session.feedNote() }),
    ]
}

/// One bus per case, started on first use and shared by its repetitions.
private final class HTTPBenchSession: Sendable {
    private struct Bus: Sendable {
        var bus: BenchBus
        var port: Int
    }

    private let scrapeBus = Mutex<Bus?>(nil)
    private let feedBus = Mutex<Bus?>(nil)
    private let metricsBytes = Mutex(0)
    private let feedRuns = Mutex((keptUp: 0, fellBehind: 0))

    private func bus(_ slot: borrowing Mutex<Bus?>, plugins: Int) -> Bus {
        slot.withLock { bus in
            if let bus { return bus }
            guard let port = RawNATS.freePort() else {
                print("switchyard-bench: no free loopback port")
                exit(1)
            }
            // Timers that never fire in a run and loggers that match nothing: each plugin
            // still has its health, received and failure series on /metrics.
            let list = (0..<plugins).map { index in
                index % 2 == 0
                    ? #"{"name": "timer-\#(index)", "kind": "timer", "interval": 3600, "type": "bench/tick"}"#
                    : #"{"name": "log-\#(index)", "kind": "logger", "format": "json", "to": "/dev/null", "actions": "none/*"}"#
            }
            let configuration = #"{"bus": {"name": "bench", "http": {"listen": "127.0.0.1:\#(port)"}}, "plugins": [\#(list.joined(separator: ", "))]}"#
            let started = Bus(bus: BenchBus.start(configuration: Data(configuration.utf8)), port: port)
            bus = started
            return started
        }
    }

    /// The median time of 200 `GET target` on one connection, in milliseconds.
    func scrape(_ target: String) async -> Double {
        let bus = bus(scrapeBus, plugins: 50)
        return await onThread {
            guard let client = HTTPBenchClient(port: bus.port) else { return .infinity }
            let request = Array("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
            let clock = ContinuousClock()
            var times: [Double] = []
            for _ in 0..<200 {
                let start = clock.now
                client.write(request)
                guard let length = client.readResponse(), length > 0 else { return .infinity }
                times.append((clock.now - start).secondsValue * 1000)
                if target == "/metrics" { self.metricsBytes.withLock { $0 = length } }
            }
            return Percentiles(times).p50
        }
    }

    func metricsNote() -> String {
        "50 plugins, \(metricsBytes.withLock { $0 }) bytes of /metrics"
    }

    /// The watcher's throughput under load, with or without an SSE client reading every action.
    func feed(actions: Int, withStream: Bool) async -> Double {
        let bus = bus(feedBus, plugins: 0)
        guard withStream else {
            return await onThread { bus.bus.measureThroughput(actions: actions, clients: 4) }
        }
        return await onThread {
            guard let stream = SSEReader(port: bus.port, socketPath: bus.bus.socketPath) else {
                self.feedRuns.withLock { $0.fellBehind += 1 }
                return 0
            }
            let figure = Mutex(0.0)
            let loaded = DispatchSemaphore(value: 0)
            Thread {
                figure.withLock { $0 = bus.bus.measureThroughput(actions: actions, clients: 4) }
                loaded.signal()
            }.start()
            // Reads on after the load until every action arrived, the bus dropped the stream, or
            // nothing came for the client's receive timeout.
            let keptUp = stream.countEvents(upTo: actions) == actions
            loaded.wait()
            self.feedRuns.withLock { keptUp ? ($0.keptUp += 1) : ($0.fellBehind += 1) }
            return figure.withLock { $0 }
        }
    }

    func feedNote() -> String {
        let runs = feedRuns.withLock { $0 }
        return runs.fellBehind == 0
            ? "the SSE client kept up in \(runs.keptUp) of \(runs.keptUp) runs"
            : "the SSE client FELL BEHIND (dropped or short) in \(runs.fellBehind) of \(runs.keptUp + runs.fellBehind) runs"
    }
}

/// An `/api/actions?pattern=load/*` client that has seen its first event, so its subscription
/// is live before the load starts.
private final class SSEReader {
    private let client: HTTPBenchClient

    init?(port: Int, socketPath: String) {
        guard let client = HTTPBenchClient(port: port) else { return nil }
        self.client = client
        client.write(Array("GET /api/actions?pattern=load/* HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
        guard client.readHead() != nil, let control = try? SocketLine(path: socketPath) else { return nil }
        control.write(Array(#"{"op":"dispatch","action":{"type":"load/ready","payload":1}}"#.utf8) + [10])
        guard control.readLine() != nil, countEvents(upTo: 1) == 1 else { return nil }
    }

    /// Counts events until `limit`, the end of the stream, or a receive timeout.
    func countEvents(upTo limit: Int) -> Int {
        var count = 0
        while count < limit, let line = client.readLine() {
            if line.starts(with: "id: ".utf8) { count += 1 }
        }
        return count
    }
}

/// A blocking HTTP/1.1 client on one loopback connection; reads give up after 30 s of silence.
final class HTTPBenchClient {
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    private var chunk = [UInt8](repeating: 0, count: 64 << 10)

    init?(port: Int) {
        var connected: Int32?
        for _ in 0..<250 {
            connected = RawNATS.connect(port: port)
            if connected != nil { break }
            Thread.sleep(forTimeInterval: 0.02)
        }
        guard let connected else { return nil }
        descriptor = connected
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit {
        close(descriptor)
    }

    func write(_ bytes: [UInt8]) {
        sendAll(bytes, to: descriptor)
    }

    /// The next line without its line break; `nil` at the end of the stream or on a timeout.
    func readLine() -> ArraySlice<UInt8>? {
        while true {
            if let newline = buffer[start...].firstIndex(of: 10) {
                let end = newline > start && buffer[newline - 1] == 13 ? newline - 1 : newline
                defer { start = newline + 1 }
                return buffer[start..<end]
            }
            guard fill() else { return nil }
        }
    }

    /// Reads a response head; returns its `Content-Length` (0 when it has none).
    func readHead() -> Int? {
        guard let status = readLine(), status.starts(with: "HTTP/1.1 2".utf8) else { return nil }
        var length = 0
        while let line = readLine() {
            if line.isEmpty { return length }
            let text = String(decoding: line, as: UTF8.self).lowercased()
            if text.hasPrefix("content-length:") { length = Int(text.dropFirst(15).trimmingCharacters(in: .whitespaces)) ?? 0 }
        }
        return nil
    }

    /// Reads a whole 2xx response and returns its body's length; `nil` on anything else.
    func readResponse() -> Int? {
        guard let length = readHead() else { return nil }
        while buffer.count - start < length {
            guard fill() else { return nil }
        }
        start += length
        return length
    }

    private func fill() -> Bool {
        if start > 0 {
            buffer.removeFirst(start)
            start = 0
        }
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return false }
        buffer.append(contentsOf: chunk[..<count])
        return true
    }
}
