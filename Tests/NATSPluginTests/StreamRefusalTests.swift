import Foundation
import SwitchyardBus
import SwitchyardTestSupport
import Testing

/// A JetStream stream that refuses publishes (full under `discard: new`) is told, once per
/// episode, and `state.NAME.counters` follows the bridge's work, with a real nats-server.
@Suite(NATSServer.requirement, .serialized)
struct StreamRefusalTests {
    private static let limit = 5

    private func refusals(_ bus: BusProcess) -> [BusAction] {
        bus.actions("fleet/failed").filter { $0.payload["kind"] == "refused" }
    }

    private func published(_ bus: BusProcess) -> Int? {
        bus.actions("fleet/counters").last?.payload["published"]?.intValue
    }

    /// The stream holds `limit` messages and refuses more: one `fleet/failed` of kind
    /// `refused`, `state.fleet` shows it as `lastError` with the live published count; once the
    /// stream is purged the kept actions go in until it is full again, a second episode.
    @Test func fullStreamIsReportedOncePerEpisode() async throws {
        let server = try await NATSServer()
        let probe = try #require(try await NATSProbe.connect(port: server.port))
        let created = await probe.request("$JS.API.STREAM.CREATE.FULL", body: """
            {"name": "FULL", "subjects": ["switchyard.>"], "max_msgs": \(Self.limit), "discard": "new", "storage": "file"}
            """)
        #expect(created.reply?["error"] == nil, "\(String(describing: created.reply))")
        let fleet = try Fleet()
        let count = 40
        let bridge = Fleet.bridge(url: server.url, #""mode": "jetstream", "publish": "demo/*", "requestTimeout": 1, "stream": {"name": "FULL", "subjects": ["switchyard.>"]}"#)
        let bus = try fleet.start("bus-a", [fleet.onceEmitter("demo/n", count: count, trigger: "go"), bridge])
        await bus.wait("bus-a to connect") { $0.statuses.last == "connected" }
        try fleet.touch("go")
        await bus.wait("the refusal to be reported and the counters to reach \(Self.limit)", timeout: .seconds(60)) {
            !refusals($0).isEmpty && published($0) == Self.limit
        }
        let message = try #require(refusals(bus).first?.payload["message"]?.stringValue)
        #expect(message.contains("maximum messages exceeded"), "\(message)")

        let state = try SwitchyardProcess(["state", "fleet", "--json", "--data-dir", fleet.directory.path("data-bus-a")], directory: fleet.directory.url)
        #expect(await state.exitStatus() == 0, "\(state.stderr)")
        let slice = try JSON(parsing: Array(state.stdout.utf8))
        #expect(slice["lastError"]?.stringValue == message, "\(state.stdout)")
        #expect(slice["counters"]?["published"]?.intValue == Self.limit, "\(state.stdout)")
        #expect(slice["status"] == "connected")

        let purged = await probe.request("$JS.API.STREAM.PURGE.FULL")
        #expect(purged.reply?["success"] == true, "\(String(describing: purged.reply))")
        await bus.wait("the kept actions to go in and a second episode to begin", timeout: .seconds(60)) {
            refusals($0).count == 2 && published($0) == 2 * Self.limit
        }
        // Retried every second through both episodes, yet told once each.
        #expect(refusals(bus).count == 2)
        #expect(await probe.messages(in: "FULL") == Self.limit)
        probe.close()
        #expect(await bus.stop() == 0)
    }
}
