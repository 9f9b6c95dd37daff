import Foundation
import SwitchyardTestSupport
import Testing

/// A watcher that falls behind is told: one whole `too-slow` line before the bus closes it,
/// `tail` says so and exits 1, and `overflow: drop-oldest` keeps it connected with counts.
@Suite(.serialized)
struct WatcherOverflowTests {
    static let padding = String(repeating: "x", count: 20_000)

    /// Dispatches padded actions until the bus has dropped `dropped` watchers; the number sent.
    static func flood(_ bus: RunningBus, untilDropped dropped: Int) async throws -> Int {
        let client = try await bus.connect()
        var sent = 0
        for _ in 0..<200 {
            for _ in 0..<20 {
                _ = try await onThread { try client.request(#"{"op":"dispatch","action":{"type":"flood/x","payload":"\#(Self.padding)"}}"#) }
                sent += 1
            }
            if try await watchersDropped(bus) >= dropped { return sent }
        }
        throw ControlE2EFailure(description: "no watcher was dropped after \(sent) actions")
    }

    static func watchersDropped(_ bus: RunningBus) async throws -> Int {
        let client = try await bus.connect()
        let stats = try await onThread { try client.request(#"{"op":"stats"}"#) }
        let object = try JSONSerialization.jsonObject(with: Data(stats.utf8)) as? [String: Any]
        let control = (object?["stats"] as? [String: Any])?["control"] as? [String: Any]
        return control?["watchersDropped"] as? Int ?? 0
    }

    /// A watcher that stops reading for longer than a second still finds a whole `too-slow` line last.
    @Test func stalledWatcherGetsTooSlowLine() async throws {
        let bus = try await RunningBus.start()
        let watcher = try await bus.connect()
        let started = try await onThread { try watcher.request(#"{"op":"watch","actions":"flood/*"}"#) }
        #expect(started.contains(#""watching""#))
        _ = try await Self.flood(bus, untilDropped: 1)
        // The client stays away past the old one-second grace, as a paused pager would.
        try await Task.sleep(for: .seconds(3))
        var last = ""
        while let line = try await onThread({ try watcher.readLine(timeout: .seconds(30)) }) { last = line }
        let toldTooSlow = last.hasPrefix(#"{"error":{"code":"too-slow""#) && last.hasSuffix("}")
        #expect(toldTooSlow, "last line: \(last.prefix(200))")
        #expect(try await Self.watchersDropped(bus) == 1)
        #expect(await bus.stop() == 0)
    }

    /// `switchyard tail` that falls behind prints why and exits 1; one that sees the bus stop exits 0.
    @Test func tailReportsBeingDropped() async throws {
        let bus = try await RunningBus.start()
        let tail = try SwitchyardProcess(["tail", "flood/*", "--json", "--config", bus.configPath], directory: bus.directory.url)
        #expect(try await bus.waitForWatchers(1))
        tail.signal(SIGSTOP)
        _ = try await Self.flood(bus, untilDropped: 1)
        try await Task.sleep(for: .seconds(2))
        tail.signal(SIGCONT)
        #expect(await tail.exitStatus(timeout: .seconds(60)) == 1)
        #expect(tail.stderr.contains("dropped this watcher because it fell behind"))

        let second = try SwitchyardProcess(["tail", "--config", bus.configPath], directory: bus.directory.url)
        #expect(try await bus.waitForWatchers(1))
        #expect(await bus.stop() == 0)
        #expect(await second.exitStatus() == 0)
        #expect(second.stderr.contains("the bus stopped"))
    }

    /// With `overflow: drop-oldest` the watcher stays connected and every action is either shown or counted.
    @Test func dropOldestCountsInsteadOfDisconnecting() async throws {
        let bus = try await RunningBus.start()
        let watcher = try await bus.connect()
        let started = try await onThread {
            try watcher.request(#"{"op":"watch","actions":"flood/*","buffer":4,"overflow":"drop-oldest"}"#)
        }
        #expect(started.contains(#""watching""#))
        let client = try await bus.connect()
        var dispatched = 0
        for _ in 0..<400 {
            _ = try await onThread { try client.request(#"{"op":"dispatch","action":{"type":"flood/x","payload":"\#(Self.padding)"}}"#) }
            dispatched += 1
        }
        var received = 0
        var dropped = 0
        var sawLast = false
        // Each probe waits for its own line; one that was dropped (the outbox was still full)
        // is counted, and the next probe follows.
        for probe in 0..<20 where !sawLast {
            _ = try await onThread { try client.request(#"{"op":"dispatch","action":{"type":"flood/last","payload":\#(probe)}}"#) }
            dispatched += 1
            // Three quiet seconds end the wait for this probe's line: the next probe follows.
            while let line = try await onThread({ try? watcher.readLine(timeout: .seconds(3)) }) {
                let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
                if let count = object["dropped"] as? Int { dropped += count }
                if let action = object["action"] as? [String: Any] {
                    received += 1
                    if action["type"] as? String == "flood/last", action["payload"] as? Int == probe {
                        sawLast = true
                        break
                    }
                }
            }
        }
        #expect(sawLast)
        #expect(dropped > 0)
        #expect(received + dropped == dispatched)
        #expect(try await Self.watchersDropped(bus) == 0)
        #expect(await bus.stop() == 0)
    }
}
