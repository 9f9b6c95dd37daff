import Foundation
import NATSPlugin
import SwitchyardBus
import SwitchyardIO

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
