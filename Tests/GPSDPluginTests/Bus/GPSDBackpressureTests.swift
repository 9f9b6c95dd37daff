import Foundation
@testable import GPSDPlugin
import SwitchyardBus
import SwitchyardTestSupport
import Synchronization
import Testing

/// A slow bus behind a real gpsd: reading pauses instead of dropping, so every report of a
/// capture played through gpsfake arrives, in order.
@Suite(.serialized, .enabled(if: GPSDProcess.testsEnabled, "\(GPSDProcess.missingMessage)"))
struct GPSDBackpressureTests {
    /// The `mode` and `time` of each TPV, the fields every fix carries over unchanged.
    private static func modeAndTime(_ report: JSON) -> String {
        "\(report["mode"]?.intValue ?? -1) \(report["time"]?.stringValue ?? "-")"
    }

    /// A consumer that sleeps on every action, behind a 4-line buffer, still gets every TPV of the capture in order, and reading paused.
    @Test(arguments: ["magellan-ec10.log", "ait250.log"])
    func slowConsumerLosesNothing(capture: String) async throws {
        let gpsd = try await GPSDProcess.gpsfakeWithDevice(capture: Fixtures.path(capture), cycle: 0.005, once: true)
        defer { gpsd.stop() }
        var configuration = GPSDConfiguration()
        configuration.endpoint = .tcp(host: "127.0.0.1", port: gpsd.port)
        configuration.bufferedLines = 4
        configuration.satellitesInterval = .zero
        configuration.staleAfter = .seconds(3_600)
        let recorder = ActionRecorder()
        let flow = GPSDFlowCounters()
        let session = GPSDSession(
            configuration: configuration, clock: ContinuousClock(), transport: SocketTransport(),
            output: GPSDSessionOutput(
                emit: { event, payload in
                    recorder.record(event, payload)
                    // The deliberately slow bus: every action takes a while to be taken.
                    try? await Task.sleep(for: .milliseconds(15))
                },
                info: { _ in }, warning: { recorder.record("log-warning", .string($0)) }, flow: flow))
        let task = Task { await session.run() }
        defer { task.cancel() }
        // Watching (gpsd had listed the device before the session connected).
        #expect(await recorder.wait { $0.contains { $0.event == "status" && ($0.payload["status"] == "connected" || $0.payload["status"] == "no-device") } },
                "\(gpsd.log)")
        gpsd.release()
        // The capture ends with gpsd reporting its device gone.
        #expect(await recorder.wait { $0.contains { $0.event == "device" && $0.payload["active"] == false } },
                "gpsfake said:\n\(gpsd.log)\nthe session emitted: \(recorder.records.map(\.event))")
        task.cancel()
        await task.value

        let expected = try Fixtures.checkReports(capture).filter { $0.contains("\"class\":\"TPV\"") }
            .map { Self.modeAndTime(try JSON(parsing: $0)) }
        let fixes = recorder.payloads("fix").map(Self.modeAndTime)
        #expect(fixes == expected, "\(capture): fixes \(fixes.count), the .chk lists \(expected.count)")
        #expect(flow.pauses > 0, "reading never paused: the consumer was not slow enough to test backpressure")
        #expect(flow.overrunDisconnects == 0)
        #expect(recorder.payloads("log-warning").isEmpty)
        let statuses = recorder.payloads("status").compactMap { $0["status"]?.stringValue }
        #expect(!statuses.contains("disconnected"), "\(statuses)")
    }
}
