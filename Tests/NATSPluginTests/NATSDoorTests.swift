import Foundation
import Switchyard
import Testing

/// A message nested past the door limit, published by any client of the server, is refused
/// at the bridge with `NAME/failed` and never stored; one as deep as the limit is taken and
/// read back: the bus starts again afterwards.
@Suite(NATSServer.requirement, .serialized)
struct NATSDoorTests {
    /// Publishes `payload` on `subject` as a plain NATS client and waits for the server's PONG.
    static func publish(port: Int, subject: String, payload: String) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
        let body = Array(payload.utf8)
        let text = "CONNECT {\"verbose\":false,\"pedantic\":false}\r\nPUB \(subject) \(body.count)\r\n\(payload)\r\nPING\r\n"
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw POSIXError(.EPIPE) }
            offset += sent
        }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while !String(decoding: received, as: UTF8.self).contains("PONG") {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { throw POSIXError(.ECONNRESET) }
            received += chunk[..<count]
        }
    }

    /// A 600-deep message becomes `fleet/failed` (kind invalid-message); a 512-deep one is an action; the bus restarts on its journal.
    @Test func deepMessageIsRefusedAtTheBridge() async throws {
        let server = try await NATSServer()
        let fleet = try Fleet()
        let bridge = Fleet.bridge(url: server.url, #""publish": "none/*", "subscribe": "switchyard.deep.>""#)
        let bus = try fleet.start("bus-deep", [bridge])
        await bus.wait("the bridge to connect") { $0.statuses.last == "connected" }
        let tooDeep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        let deepest = String(repeating: "[", count: JSONLimits.maximumDepth) + String(repeating: "]", count: JSONLimits.maximumDepth)
        try Self.publish(port: server.port, subject: "switchyard.deep.x", payload: tooDeep)
        try Self.publish(port: server.port, subject: "switchyard.deep.y", payload: deepest)
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
        let again = try fleet.start("bus-deep", [bridge])
        await again.wait("the bus to start again") { $0.stderr.contains("ready:") }
        #expect(await again.stop() == 0)
    }
}
