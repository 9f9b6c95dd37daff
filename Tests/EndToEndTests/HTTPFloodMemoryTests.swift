import Foundation
import Glibc
import SwitchyardTestSupport
import Testing

/// A flood of event-stream clients that never read: every one is dropped and counted, what
/// they hold together is bounded, and afterwards the bus gives that memory back to the
/// system instead of keeping its peak for good.
@Suite(.serialized)
struct HTTPFloodMemoryTests {
    static let clients = 100
    /// What the bus may keep above its resident size before the flood: far below what the
    /// clients' outboxes held at the peak (1 MiB each), far above what settling arenas and
    /// thread stacks add.
    static let margin = 40 << 20
    /// What the flood may add at its peak: the streams' 64 MiB budget, 64 KiB each past it,
    /// and the 8,192 recent actions of 4 KB a stream's buffer may keep alive (shared by all).
    /// Measured: 34 MiB here; with 4 MiB per stream and no budget, 370-410 MiB.
    static let peakBound = 160 << 20

    /// 100 non-reading clients while 4 KB actions flow until all are dropped: resident memory
    /// stays within the streams' bound meanwhile, and comes back within 40 MiB of where it
    /// was afterwards.
    @Test(.scaledTimeLimit(minutes: 5)) func memoryReturnsAfterAFloodOfSlowStreams() async throws {
        let (bus, port) = try await RunningBus.startServingHTTP(http: #""maxConnections": 200"#)
        let control = try await bus.connect()
        let payload = String(repeating: "x", count: 4000)
        let flood = { @Sendable (rounds: Int) throws in
            for _ in 0..<rounds {
                for _ in 0..<200 { try control.write(#"{"op":"dispatch","action":{"type":"load/x","payload":{"p":"\#(payload)"}}}"# + "\n") }
                for _ in 0..<200 { _ = try control.readLine() }
            }
        }
        // Warm up what any use of the bus touches once: the journal, a stream, the encoders.
        let warmed = try await onThread { () throws -> Bool in
            let warm = try HTTPTestClient(port: port)
            warm.send("GET /api/actions HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let streaming = warm.read(through: ": switchyard event stream\n\n") != nil
            try flood(5)
            return streaming
        }
        #expect(warmed)
        try await waitUntil("the warm-up stream is closed", interval: .milliseconds(50)) {
            let stats = try await onThread { try HTTPTestClient.request(port: port, "GET", "/api/stats") }
            return ((stats.json["stats"] as? [String: Any])?["http"] as? [String: Any])?["streams"] as? Int == 0
        }
        let baseline = try ReloadMemoryTests.residentBytes(bus.process.pid)

        let streams = try await onThread { () throws -> [HTTPTestClient] in
            try (0..<Self.clients).map { _ in
                let client = try HTTPTestClient(port: port)
                client.send("GET /api/actions HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                return client
            }
        }
        var peak = baseline
        var dropped = 0
        let allDropped = try await eventually(timeout: .seconds(120), interval: .milliseconds(10)) {
            try await onThread { try flood(5) }
            peak = max(peak, try ReloadMemoryTests.residentBytes(bus.process.pid))
            let stats = try await onThread { try HTTPTestClient.request(port: port, "GET", "/api/stats") }
            let http = (stats.json["stats"] as? [String: Any])?["http"] as? [String: Any]
            dropped = http?["streamsDropped"] as? Int ?? 0
            return dropped >= Self.clients
        }
        #expect(allDropped, "\(dropped) of \(Self.clients) non-reading streams were dropped")
        #expect(peak - baseline < Self.peakBound, "resident memory went from \(baseline >> 20) MiB to \(peak >> 20) MiB")
        #expect(try await onThread { streams.allSatisfy { $0.closes() } })
        var resident = peak
        let returned = await eventually(timeout: .seconds(60), interval: .milliseconds(200)) {
            resident = (try? ReloadMemoryTests.residentBytes(bus.process.pid)) ?? resident
            return resident < baseline + Self.margin
        }
        #expect(returned, "resident memory stayed at \(resident >> 20) MiB after the flood (before: \(baseline >> 20) MiB, peak: \(peak >> 20) MiB)")
        #expect(await bus.stop() == 0)
    }
}
