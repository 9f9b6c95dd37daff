import Foundation
import NATSPlugin
import Switchyard
import SwitchyardIO

/// The `nats` benchmark cases: two buses in this process bridged by `nats` plugins through a
/// real nats-server on 127.0.0.1 (started per measurement, so every run has a fresh store).
///
/// `nats.bridge` (core and jetstream): actions dispatched on bus A as fast as it takes them,
/// per second until bus B reduced them all. `nats.latency` p50 and p99: one action at a time,
/// from dispatch on A to its arrival on B, in milliseconds. The baseline is a plain NATS
/// client on the same server: raw publishes of the same payload read back by a subscriber.
/// Without nats-server (Debian package nats-server) the cases are left out.
func natsBenchmarks() -> [BenchmarkCase] {
    guard NATSBenchServer.executable != nil else {
        print("nats: cases skipped, nats-server is not installed (Debian package nats-server)")
        return []
    }
    let count = 20_000
    let forwardCount = 50_000
    let samples = 1_000
    let coreCPU = CPUPerAction()
    return [
        BenchmarkCase(name: "nats.bridge.core", unit: "actions/s",
                      measure: { await bridgeThroughput(mode: "core", count: count, cpu: coreCPU) },
                      baseline: { await RawNATS.throughput(count: count) },
                      note: { coreCPU.note }),
        BenchmarkCase(name: "nats.bridge.jetstream", unit: "actions/s",
                      measure: { await bridgeThroughput(mode: "jetstream", count: count) },
                      baseline: { await RawNATS.throughput(count: count) }),
        BenchmarkCase(name: "nats.forward.jetstream", unit: "actions/s",
                      measure: { await forwardThroughput(count: forwardCount) },
                      baseline: { await RawNATS.jetStreamThroughput(count: forwardCount, window: forwardWindow) }),
        BenchmarkCase(name: "nats.latency.p50", unit: "ms", higherIsBetter: false,
                      measure: { await bridgeLatency(samples: samples, quantile: 0.5) },
                      baseline: { await RawNATS.latency(samples: samples, quantile: 0.5) }),
        BenchmarkCase(name: "nats.latency.p99", unit: "ms", higherIsBetter: false,
                      measure: { await bridgeLatency(samples: samples, quantile: 0.99) },
                      baseline: { await RawNATS.latency(samples: samples, quantile: 0.99) }),
    ]
}

/// A payload of the size of a location fix.
let fixPayload: JSON = ["device": "truck-a", "mode": 3, "lat": 48.8584, "lon": 2.2945, "speed": 12.5, "track": 271.3]

/// Runs `body` with buses A and B bridged through a fresh server, both connected; 0 when
/// anything fails.
private func withBridgedBuses(mode: String, _ body: (Bus, Bus) async -> Double) async -> Double {
    guard let server = NATSBenchServer() else { return 0 }
    defer { server.stop() }
    var registry = PluginRegistry()
    registry.register(NATSPlugin.self)
    func bus(_ name: String) -> Bus? {
        let text = """
            {"bus": {"name": "\(name)", "inboxCapacity": 16384}, "plugins": [{"name": "nats", "kind": "nats", "url": "\(server.url)",
             "mode": "\(mode)", "publish": "bench/*", "subscribe": "switchyard.bench.>", "bufferSize": 100000}]}
            """
        guard let configuration = try? BusConfiguration.parse(text, file: "bench", environment: [:], registry: registry) else { return nil }
        return try? Bus(configuration: configuration, registry: registry, log: LogSink(minimumLevel: .warning))
    }
    guard let a = bus("bench-a"), let b = bus("bench-b") else { return 0 }
    let running = [Task { try await a.run() }, Task { try await b.run() }]
    defer { for task in running { task.cancel() } }
    for bus in [a, b] {
        for await state in bus.states where state["nats"]?["status"] == "connected" { break }
    }
    // Core NATS may lose a message; rather than wait forever, a stopped bus ends the
    // measurement (its figure is then meaningless, and says so by being tiny).
    let watchdog = Task {
        try await Task.sleep(for: .seconds(60))
        print("nats: a measurement took over 60 s; stopping it")
        a.stop()
        b.stop()
    }
    defer { watchdog.cancel() }
    let figure = await body(a, b)
    for (bus, task) in zip([a, b], running) {
        bus.stop()
        _ = await task.result
    }
    return figure
}

private func bridgeThroughput(mode: String, count: Int, cpu: CPUPerAction? = nil) async -> Double {
    await withBridgedBuses(mode: mode) { a, b in
        let arrivals = b.actions(matching: TypePattern("bench/tick") ?? .all, bufferSize: 8192)
        let cpuBefore = CPUPerAction.processTime()
        defer { cpu?.record(CPUPerAction.processTime() - cpuBefore, actions: count) }
        return await throughput(count: count) {
            async let received: Void = {
                var seen = 0
                for await _ in arrivals {
                    seen += 1
                    if seen == count { return }
                }
            }()
            for _ in 0..<count {
                let action = BusAction(type: "bench/tick", payload: fixPayload, source: "bench")
                if !a.send(action) { await a.dispatch(action) }
            }
            await received
        }
    }
}

private func bridgeLatency(samples: Int, quantile: Double) async -> Double {
    await withBridgedBuses(mode: "core") { a, b in
        var arrivals = b.actions(matching: TypePattern("bench/ping") ?? .all).makeAsyncIterator()
        let clock = ContinuousClock()
        var latencies: [Duration] = []
        for _ in 0..<samples {
            let start = clock.now
            await a.dispatch(BusAction(type: "bench/ping", payload: fixPayload, source: "bench"))
            guard await arrivals.next() != nil else { break }
            latencies.append(start.duration(to: clock.now))
        }
        return milliseconds(percentile(latencies, quantile))
    }
}

private func percentile(_ values: [Duration], _ quantile: Double) -> Duration {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .zero }
    return sorted[min(sorted.count - 1, Int((Double(sorted.count) * quantile).rounded(.down)))]
}

private func milliseconds(_ duration: Duration) -> Double {
    duration.secondsValue * 1000
}

/// A nats-server with JetStream on a free port and a store of its own, for one measurement.
final class NATSBenchServer: Sendable {
    static let executable: String? = {
        let candidates: [String] = ["/usr/sbin/nats-server", "/usr/bin/nats-server", "/usr/local/bin/nats-server"]
        return candidates.first { access($0, X_OK) == 0 }
    }()

    let port: Int
    private let process: Process
    private let store: URL

    init?() {
        guard let executable = Self.executable, let port = RawNATS.freePort() else { return nil }
        self.port = port
        store = FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-bench-nats-\(UUID().uuidString)")
        process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["-js", "-a", "127.0.0.1", "-p", String(port), "-sd", store.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        for _ in 0..<500 where RawNATS.connect(port: port).map({ close($0); return false }) ?? true {
            usleep(10_000)
        }
    }

    var url: String { "nats://127.0.0.1:\(port)" }

    func stop() {
        process.terminate()
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: store)
    }
}

/// The baseline: a plain client on blocking sockets, on threads of its own. One connection
/// with echo on subscribes to ``RawNATS/rawSubject`` and reads back what it publishes there.
enum RawNATS {
    ///
    /// It sends what the bridge sends, so both move the same bytes through the same server
    /// work: `HPUB` to the subject the bridge uses, with the bridge's three headers (a message
    /// id that changes with each message, the origin, the source) and the same JSON payload.
    /// The messages are encoded before the clock starts and written 100 to a `write`.
    static func throughput(count: Int) async -> Double {
        await withSession { session in
            var payload: [UInt8] = []
            fixPayload.serialize(into: &payload)
            let chunks = (0..<(count / 100)).map { chunk in
                (0..<100).flatMap { index in
                    let headers = "NATS/1.0\r\nNats-Msg-Id: bench-a-\(chunk * 100 + index + 1)\r\nSwitchyard-Origin: bench-a\r\nSwitchyard-Source: bench\r\n\r\n"
                    let size = headers.utf8.count
                    return Array("HPUB \(rawSubject) \(size) \(size + payload.count)\r\n\(headers)".utf8) + payload + [13, 10]
                }
            }
            let descriptor = session.descriptor
            let clock = ContinuousClock()
            let start = clock.now
            let writer = Thread {
                for chunk in chunks { RawNATS.write(chunk, to: descriptor) }
            }
            writer.start()
            for _ in 0..<count where !session.readMessage() { return 0 }
            let elapsed = start.duration(to: clock.now)
            return Double(count) / max(milliseconds(elapsed) / 1000, 1e-9)
        }
    }

    /// The baseline of `nats.forward.jetstream`: a plain JetStream publisher with the same
    /// acknowledgements and message size as the bridge — `HPUB` with the bridge's headers
    /// (`Nats-Msg-Id` and the two Switchyard ones), the same payload and a reply inbox, at most
    /// `window` unacknowledged — timed until the server acknowledged all `count`.
    static func jetStreamThroughput(count: Int, window: Int) async -> Double {
        await withSession { session in
            session.write(Array("SUB _INBOX.raw.* 2\r\n".utf8))
            let create = #"{"name":"RAW","subjects":["raw.>"],"storage":"file","duplicate_window":120000000000}"#
            session.write(Array("PUB $JS.API.STREAM.CREATE.RAW _INBOX.raw.setup \(create.utf8.count)\r\n\(create)\r\n".utf8))
            guard session.readMessage() else { return 0 }
            var payload: [UInt8] = []
            fixPayload.serialize(into: &payload)
            let clock = ContinuousClock()
            let start = clock.now
            var sent = 0
            var acknowledged = 0
            var output: [UInt8] = []
            while acknowledged < count {
                while sent < count, sent - acknowledged < window {
                    sent += 1
                    // The bridge's header block, byte for byte, so both store messages of one size.
                    let headers = "NATS/1.0\r\nNats-Msg-Id: bench-a-\(sent)\r\nSwitchyard-Origin: bench-a\r\nSwitchyard-Source: bench\r\n\r\n"
                    output += Array("HPUB raw.bench _INBOX.raw.\(sent) \(headers.utf8.count) \(headers.utf8.count + payload.count)\r\n\(headers)".utf8)
                    output += payload
                    output += [13, 10]
                }
                if !output.isEmpty {
                    session.write(output)
                    output.removeAll(keepingCapacity: true)
                }
                guard session.readMessage() else { return 0 }
                acknowledged += 1
            }
            let elapsed = start.duration(to: clock.now)
            return Double(count) / max(milliseconds(elapsed) / 1000, 1e-9)
        }
    }

    /// The number of messages `stream` holds, asked on `session` (subscribed to `_INBOX.info`
    /// by ``subscribeToInfo(_:)``); `nil` when the reply is unreadable.
    static func messages(in stream: String, session: RawSession) -> Int? {
        session.write(Array("PUB $JS.API.STREAM.INFO.\(stream) _INBOX.info 0\r\n\r\n".utf8))
        guard let payload = session.readPayload(), let reply = try? JSON(parsing: payload) else { return nil }
        return reply["state"]?["messages"]?.intValue
    }

    /// Subscribes `session` to the replies ``messages(in:session:)`` asks for.
    static func subscribeToInfo(_ session: RawSession) {
        session.write(Array("SUB _INBOX.info 3\r\nPING\r\n".utf8))
    }

    /// The subject the bridge publishes `bench/tick` to, which the baseline session reads.
    static let rawSubject = "switchyard.bench.tick"

    static func latency(samples: Int, quantile: Double) async -> Double {
        await withSession { session in
            var payload: [UInt8] = []
            fixPayload.serialize(into: &payload)
            let message = Array("PUB \(rawSubject) \(payload.count)\r\n".utf8) + payload + [13, 10]
            let clock = ContinuousClock()
            var latencies: [Duration] = []
            for _ in 0..<samples {
                let start = clock.now
                session.write(message)
                guard session.readMessage() else { return 0 }
                latencies.append(start.duration(to: clock.now))
            }
            return milliseconds(percentile(latencies, quantile))
        }
    }

    /// Writes all of `bytes`, blocking; stops early when the connection fails.
    static func write(_ bytes: [UInt8], to descriptor: Int32) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + offset, bytes.count - offset) }
            guard written > 0 else { return }
            offset += written
        }
    }

    /// Runs `body` on a thread with a connected session to a fresh server; 0 when that fails.
    private static func withSession(_ body: @escaping @Sendable (RawSession) -> Double) async -> Double {
        guard let server = NATSBenchServer() else { return 0 }
        defer { server.stop() }
        return await onThread {
            guard let session = RawSession(port: server.port) else { return 0 }
            defer { close(session.descriptor) }
            return body(session)
        }
    }

    static func connect(port: Int) -> Int32? {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard connected else {
            close(descriptor)
            return nil
        }
        var enabled: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &enabled, socklen_t(MemoryLayout<Int32>.size))
        return descriptor
    }

    static func freePort() -> Int? {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
        }
        return bound ? Int(UInt16(bigEndian: address.sin_port)) : nil
    }
}

/// One blocking connection of the baseline client: it reads whole `MSG`s and answers pings.
final class RawSession {
    let descriptor: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    /// Read into, kept between reads: zeroing a fresh 64 KiB per read was the baseline's top cost.
    private var chunk = [UInt8](repeating: 0, count: 1 << 16)

    /// A session subscribed to ``RawNATS/rawSubject`` when `subscribing`; a probe asking the
    /// server questions must not be, or the bridge's messages come before its answers.
    init?(port: Int, subscribing: Bool = true) {
        guard let descriptor = RawNATS.connect(port: port) else { return nil }
        self.descriptor = descriptor
        // Headers announced: the JetStream baseline publishes with HPUB, which the server refuses otherwise.
        let subscription = subscribing ? "SUB \(RawNATS.rawSubject) 1\r\n" : ""
        write(Array("CONNECT {\"verbose\":false,\"echo\":true,\"headers\":true}\r\n\(subscription)PING\r\n".utf8))
        while let line = readLine(), !buffer[line].elementsEqual("PONG".utf8) {}
    }

    func write(_ bytes: [UInt8]) {
        RawNATS.write(bytes, to: descriptor)
    }

    /// Reads up to the next message and skips its payload; `false` when the connection ended.
    ///
    /// Lines are read as bytes, as a real client does: making a string of each line and
    /// splitting it was this reader's largest cost, and held the baseline below what the
    /// server can carry.
    func readMessage() -> Bool {
        while let line = readLine() {
            guard let size = messageSize(line) else { continue }
            guard fill(size + 2) else { return false }
            start += size + 2
            return true
        }
        return false
    }

    /// Reads up to the next message and returns its payload; `nil` when the connection ended.
    func readPayload() -> [UInt8]? {
        while let line = readLine() {
            guard let size = messageSize(line) else { continue }
            let hasHeaders = buffer[line].starts(with: "HMSG ".utf8)
            guard fill(size + 2) else { return nil }
            let payload = Array(buffer[start..<(start + size)])
            start += size + 2
            return hasHeaders ? nil : payload
        }
        return nil
    }

    /// The size at the end of a `MSG` or `HMSG` line; `nil` for another line (a `PING` is
    /// answered).
    private func messageSize(_ line: Range<Int>) -> Int? {
        let text = buffer[line]
        if text.elementsEqual("PING".utf8) { write(Array("PONG\r\n".utf8)) }
        guard text.starts(with: "MSG ".utf8) || text.starts(with: "HMSG ".utf8) else { return nil }
        var size = 0
        var digit = line.upperBound
        var scale = 1
        while digit > line.lowerBound, case let byte = buffer[digit - 1], byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
            size += Int(byte - UInt8(ascii: "0")) * scale
            scale *= 10
            digit -= 1
        }
        return digit < line.upperBound ? size : nil
    }

    /// The next line without its line break, as a range of ``buffer``; `nil` at the end.
    private func readLine() -> Range<Int>? {
        var scanned = start
        while true {
            if let newline = buffer[scanned...].firstIndex(of: 10) {
                let line = start..<(newline > start && buffer[newline - 1] == 13 ? newline - 1 : newline)
                start = newline + 1
                return line
            }
            scanned = buffer.count
            let offset = scanned - start
            guard fill(buffer.count - start + 1) else { return nil }
            scanned = start + offset
        }
    }

    /// Reads until at least `count` unread bytes are buffered; `false` at the end of the stream.
    private func fill(_ count: Int) -> Bool {
        if start > 1 << 16 {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        while buffer.count - start < count {
            let read = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            guard read > 0 else { return false }
            buffer += chunk[0..<read]
        }
        return true
    }
}
