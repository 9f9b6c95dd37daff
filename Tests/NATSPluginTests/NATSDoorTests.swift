import Foundation
import SwitchyardBus
import Testing

/// A message nested past the door limit, published by any client of the server, is refused
/// at the bridge with `NAME/failed` and never stored; one as deep as the limit is taken and
/// read back: the bus starts again afterwards.
@Suite(NATSServer.requirement, .serialized)
struct NATSDoorTests {
    /// A 600-deep message becomes `fleet/failed` (kind invalid-message); a 512-deep one is an action; the bus restarts on its journal.
    @Test func deepMessageIsRefusedAtTheBridge() async throws {
        let server = try await NATSServer()
        let fleet = try Fleet()
        let bus = try await fleet.startBridge("bus-deep", on: server, subscribing: "switchyard.deep.>")
        let tooDeep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        let deepest = String(repeating: "[", count: JSONLimits.maximumDepth) + String(repeating: "]", count: JSONLimits.maximumDepth)
        try RawNATSClient.publish(port: server.port, subject: "switchyard.deep.x", payload: tooDeep)
        try RawNATSClient.publish(port: server.port, subject: "switchyard.deep.y", payload: deepest)
        // The 512-deep action's logger line is deeper than BusProcess reads, so look for its type.
        let logged = { (try? String(contentsOfFile: bus.actionLog, encoding: .utf8)) ?? "" }
        await bus.wait("the refusal and the next message") { bus in
            !bus.actions("fleet/failed").isEmpty && logged().contains(#""type":"deep/y""#)
        }
        let failure = try #require(bus.actions("fleet/failed").first)
        #expect(failure.payload["kind"] == "invalid-message")
        #expect(failure.payload["message"]?.stringValue?.contains("nested deeper than 512") == true)
        #expect(!logged().contains(#""type":"deep/x""#))
        #expect(await bus.stop() == 0)
        let again = try await fleet.startBridge("bus-deep", on: server, subscribing: "switchyard.deep.>")
        await again.wait("the bus to start again") { $0.stderr.contains("ready:") }
        #expect(await again.stop() == 0)
    }
}
