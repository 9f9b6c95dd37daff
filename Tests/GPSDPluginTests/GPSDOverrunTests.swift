@testable import GPSDPlugin
import SwitchyardBus
import SwitchyardTesting
import Testing

/// A connection gpsd ends while the bus is behind: every line read still arrives, then the end
/// is a warning and a `disconnected` status saying why, and it is counted.
struct GPSDOverrunTests {
    private let devices = "{\"class\":\"DEVICES\",\"devices\":[{\"class\":\"DEVICE\",\"path\":\"/dev/ttyUSB0\"}]}"

    /// Lines pushed faster than a slow consumer takes them pause reading; gpsd's close after that is reported as an overrun, after every fix.
    @Test func closeWhileBehindIsReported() async throws {
        let transport = ScriptedTransport()
        let recorder = ActionRecorder()
        let flow = GPSDFlowCounters()
        var configuration = GPSDConfiguration()
        configuration.bufferedLines = 2
        configuration.reconnectDelay = .seconds(3_600)
        configuration.maximumReconnectDelay = .seconds(3_600)
        let session = GPSDSession(
            configuration: configuration, clock: ManualClock(), transport: transport,
            output: GPSDSessionOutput(
                emit: { event, payload in
                    recorder.record(event, payload)
                    if event == "fix" { try? await Task.sleep(for: .milliseconds(5)) }
                },
                info: { _ in }, warning: { recorder.record("log-warning", .string($0)) }, flow: flow))
        let task = Task { await session.run() }
        defer { task.cancel() }
        let connection = try #require(await transport.connection(0))
        connection.push(.connected)
        connection.push(lines: devices)
        #expect(await recorder.wait { $0.contains { $0.event == "status" && $0.payload["status"] == "connected" } })
        for index in 0..<20 {
            connection.push(lines: "{\"class\":\"TPV\",\"device\":\"/dev/ttyUSB0\",\"mode\":2,\"lat\":\(index),\"lon\":0}")
        }
        connection.push(.closed(.endOfStream(.standard)))
        #expect(await recorder.wait { $0.contains { $0.event == "status" && $0.payload["status"] == "disconnected" } })
        task.cancel()
        await task.value

        #expect(flow.pauses > 0)
        #expect(flow.overrunDisconnects == 1)
        let events = recorder.records.map(\.event)
        let disconnected = try #require(recorder.records.firstIndex { $0.payload["status"] == "disconnected" })
        #expect(events[..<disconnected].filter { $0 == "fix" }.count == 20)
        #expect(recorder.payloads("fix").map { $0["lat"]?.intValue ?? -1 } == Array(0..<20))
        let reason = recorder.records[disconnected].payload["reason"]?.stringValue ?? ""
        #expect(reason.contains("fell behind"), "\(reason)")
        #expect(recorder.payloads("log-warning").contains { $0.stringValue?.contains("gpsd ends a client") == true })
    }
}
