@testable import GPSDPlugin
import SwitchyardTesting
import SwitchyardBus
import Testing

/// The session driven by a scripted transport and a manual clock: what it sends and emits,
/// backoff and watchdog timing.
struct GPSDSessionTests {
    private struct Harness {
        let clock = ManualClock()
        let transport = ScriptedTransport()
        let recorder = ActionRecorder()
        let task: Task<Void, Never>

        init(configure: (inout GPSDConfiguration) -> Void = { _ in }) {
            var configuration = GPSDConfiguration()
            configure(&configuration)
            let recorder = recorder
            let session = GPSDSession(
                configuration: configuration, clock: clock, transport: transport,
                output: GPSDSessionOutput(
                    emit: { event, payload in recorder.record(event, payload) }, info: { _ in },
                    warning: { recorder.record("log-warning", .string($0)) }))
            task = Task { await session.run() }
        }

        func waitForStatuses(_ count: Int) async -> Bool {
            await recorder.wait { records in records.filter { $0.event == "status" }.count >= count }
        }
    }

    private let devices = "{\"class\":\"DEVICES\",\"devices\":[{\"class\":\"DEVICE\",\"path\":\"/dev/ttyUSB0\"}]}"

    /// A connection sends `?WATCH`, reports connected, and turns TPVs into fixes.
    @Test func connectsWatchesAndEmits() async throws {
        let harness = Harness()
        let connection = try #require(await harness.transport.connection(0))
        connection.push(.connected)
        connection.push(lines: "{\"class\":\"VERSION\",\"release\":\"3.22\"}", devices,
            "{\"class\":\"TPV\",\"device\":\"/dev/ttyUSB0\",\"mode\":3,\"lat\":-37.78,\"lon\":175.31}")
        #expect(await harness.recorder.wait { $0.contains { $0.event == "fix" } })
        #expect(connection.sent == ["?WATCH={\"enable\":true,\"json\":true};\n"])
        #expect(harness.recorder.statuses() == ["connecting", "connected"])
        #expect(harness.recorder.payloads("status").last == [
            "status": "connected", "endpoint": "127.0.0.1:2947", "gpsd": "3.22",
        ])
        #expect(harness.recorder.payloads("device") == [["path": "/dev/ttyUSB0", "active": true]])
        #expect(harness.recorder.payloads("fix") == [["mode": 3, "device": "/dev/ttyUSB0", "lat": -37.78, "lon": 175.31]])
        harness.task.cancel()
        await harness.task.value
        #expect(connection.isClosed)
    }

    /// Lost connections are retried after the backoff delay on the clock, and watched again.
    @Test func reconnectsWithBackoffOnTheClock() async throws {
        // Lost connections are retried after the backoff delay on the clock — not before — and
        // each new connection is watched again.
        let harness = Harness { configuration in
            configuration.reconnectDelay = .seconds(1)
            configuration.maximumReconnectDelay = .seconds(2)
        }
        let first = try #require(await harness.transport.connection(0))
        first.push(.closed(.connect(.standard, errno: 111)))
        #expect(await harness.waitForStatuses(2))
        #expect(harness.recorder.payloads("status")[1] == [
            "status": "disconnected", "endpoint": "127.0.0.1:2947",
            "reason": "cannot connect to 127.0.0.1:2947: Connection refused", "retryIn": 1.0,
        ])
        #expect(await harness.clock.waitForSleepers(atLeast: 1))
        harness.clock.advance(by: .milliseconds(999))
        await Task.yield()
        #expect(harness.transport.connections.count == 1)
        harness.clock.advance(by: .milliseconds(1))
        let second = try #require(await harness.transport.connection(1))
        second.push(.closed(.connect(.standard, errno: 111)))
        #expect(await harness.waitForStatuses(4))
        #expect(harness.recorder.payloads("status")[3]["retryIn"] == 2.0)
        #expect(await harness.clock.waitForSleepers(atLeast: 1))
        harness.clock.advance(by: .seconds(2))
        let third = try #require(await harness.transport.connection(2))
        third.push(.connected)
        third.push(lines: devices)
        #expect(await harness.waitForStatuses(6))
        #expect(harness.recorder.statuses() == ["connecting", "disconnected", "connecting", "disconnected", "connecting", "connected"])
        #expect(third.sent == ["?WATCH={\"enable\":true,\"json\":true};\n"])
        harness.task.cancel()
        await harness.task.value
    }

    /// Silence for `staleAfter` on the clock reports stale; the next line reports connected.
    @Test func watchdogUsesTheClock() async throws {
        let harness = Harness { $0.staleAfter = .seconds(10) }
        let connection = try #require(await harness.transport.connection(0))
        connection.push(.connected)
        connection.push(lines: devices)
        #expect(await harness.waitForStatuses(2))
        #expect(await harness.clock.waitForSleepers(atLeast: 1))
        harness.clock.advance(by: .seconds(8))
        #expect(await harness.clock.waitForSleepers(atLeast: 1))
        harness.clock.advance(by: .seconds(2))
        #expect(await harness.waitForStatuses(3))
        #expect(harness.recorder.payloads("status")[2] == [
            "status": "stale", "endpoint": "127.0.0.1:2947", "reason": "nothing from gpsd for 10.0 seconds",
        ])
        connection.push(lines: "{\"class\":\"TPV\",\"mode\":1}")
        #expect(await harness.waitForStatuses(4))
        #expect(harness.recorder.statuses().last == "connected")
        harness.task.cancel()
        await harness.task.value
    }

    /// Over-long lines and garbage are skipped with a warning, and the feed carries on.
    @Test func garbageDoesNotBreakTheFeed() async throws {
        let harness = Harness()
        let connection = try #require(await harness.transport.connection(0))
        connection.push(.connected)
        connection.push(.discardedLine(byteCount: 300_000))
        connection.push(lines: "\u{0}\u{0}$GPGGA,,", "{\"class\":\"TPV\",\"mode\":2,\"lat\":1,\"lon\":2}")
        #expect(await harness.recorder.wait { $0.contains { $0.event == "fix" } })
        #expect(harness.recorder.payloads("log-warning") == [
            "skipped a line of 300000 bytes, over the line-length limit; 1 unusable line(s) so far"
        ])
        #expect(!harness.recorder.statuses().contains("disconnected"))
        harness.task.cancel()
        await harness.task.value
    }

    /// Cancelling while waiting to reconnect ends the session at once.
    @Test func cancellationDuringBackoff() async throws {
        let harness = Harness { $0.reconnectDelay = .seconds(3600) }
        let connection = try #require(await harness.transport.connection(0))
        connection.push(.closed(.endOfStream(.standard)))
        #expect(await harness.clock.waitForSleepers(atLeast: 1))
        harness.task.cancel()
        await harness.task.value
        #expect(harness.transport.connections.count == 1)
    }
}
