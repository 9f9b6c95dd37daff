import Foundation
import SwitchyardBus
import Testing

/// A burst of messages larger than one read (the event loop reads 64 KiB at a time) goes into
/// the bus as runs of actions: every action arrives once and in order, and a malformed payload
/// in the middle of a run is still refused on its own, reported and counted as before.
@Suite(NATSServer.requirement, .serialized)
struct NATSBatchTests {
    /// 1,500 messages in one write of about 250 KB, the 700th with a payload that is not JSON
    /// and the last a second delivery of the 7th's message id.
    static func burst() -> [UInt8] {
        var bytes = Array("CONNECT {\"verbose\":false,\"pedantic\":false,\"headers\":true}\r\n".utf8)
        func message(id: Int, payload: String) -> [UInt8] {
            let headers = "NATS/1.0\r\nNats-Msg-Id: other-\(id)\r\nSwitchyard-Origin: other\r\nSwitchyard-Source: emit\r\n\r\n"
            let body = Array(payload.utf8)
            let size = headers.utf8.count
            return Array("HPUB switchyard.burst.n \(size) \(size + body.count)\r\n\(headers)".utf8) + body + Array("\r\n".utf8)
        }
        let padding = String(repeating: "x", count: 40)
        for n in 1...1500 {
            bytes += message(id: n, payload: n == 700 ? #"{"n": 700, oops}"# : #"{"n":\#(n),"pad":"\#(padding)"}"#)
        }
        bytes += message(id: 7, payload: #"{"n":7}"#)
        bytes += Array("PING\r\n".utf8)
        return bytes
    }

    /// Every action of the burst arrives once, in order; the malformed one becomes one
    /// `fleet/failed` (kind invalid-message), logged once; the repeated id is dropped; the
    /// counters say so when the bus stops.
    @Test func burstAcrossReads() async throws {
        let server = try await NATSServer()
        let fleet = try Fleet()
        let bus = try await fleet.startBridge("bus-burst", on: server, subscribing: "switchyard.burst.>")
        try RawNATSClient.send(Self.burst(), port: server.port)
        let expected = Array(1...1500).filter { $0 != 700 }
        await bus.wait("1,499 actions and the refusal") { bus in
            bus.numbers("burst/n", source: "nats:other").count >= expected.count && !bus.actions("fleet/failed").isEmpty
        }
        #expect(await bus.stop() == 0)
        #expect(bus.numbers("burst/n", source: "nats:other") == expected)
        let failures = bus.actions("fleet/failed")
        #expect(failures.count == 1)
        #expect(failures.first?.payload["kind"] == "invalid-message")
        #expect(failures.first?.payload["message"]?.stringValue?.hasPrefix("the payload is not JSON") == true)
        #expect(failures.first?.payload["subject"] == "switchyard.burst.n")
        #expect(bus.stderr.components(separatedBy: "received a message that is not an action").count == 2)
        #expect(bus.stderr.contains("1499 received"))
        #expect(bus.stderr.contains("0 dropped"))
    }

    /// Local actions that reach the bridge faster than it publishes go out in runs (one lock,
    /// one write each): bus B receives all 3,000 of bus A's actions once, in order, and A
    /// counts them all published.
    @Test func localBurstIsPublishedInOrder() async throws {
        let server = try await NATSServer()
        let fleet = try Fleet()
        let emitter = fleet.emitter("burst/n", count: 3000, trigger: "go")
        let a = try await fleet.startBridge("bus-a", on: server, subscribing: "switchyard.burst.>", publish: "burst/*", plugins: [emitter])
        let b = try await fleet.startBridge("bus-b", on: server, subscribing: "switchyard.burst.>", publish: "burst/*")
        try fleet.touch("go")
        await b.wait("bus-b to receive 3,000 actions", timeout: .seconds(60)) { $0.numbers("burst/n", source: "nats:bus-a").count >= 3000 }
        #expect(await a.stop() == 0)
        #expect(await b.stop() == 0)
        #expect(b.numbers("burst/n", source: "nats:bus-a") == Array(1...3000))
        #expect(a.stderr.contains("stopped: 3000 published"))
    }
}
