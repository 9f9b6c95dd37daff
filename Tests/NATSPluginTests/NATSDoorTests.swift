import Foundation
import Switchyard
import Testing

/// A message nested past the door limit, published by any client of the server, is refused
/// at the bridge with `NAME/failed` and never stored: the bus starts again afterwards.
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

    /// A 512-deep message becomes `fleet/failed` (kind invalid-message); the bus restarts on its journal.
    @Test func deepMessageIsRefusedAtTheBridge() async throws {
        let server = try await NATSServer()
        let fleet = try Fleet()
        let bridge = Fleet.bridge(url: server.url, #""publish": "none/*", "subscribe": "switchyard.deep.>""#)
        let bus = try fleet.start("bus-deep", [bridge])
        await bus.wait("the bridge to connect") { $0.statuses.last == "connected" }
        let deep = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        try Self.publish(port: server.port, subject: "switchyard.deep.x", payload: deep)
        try Self.publish(port: server.port, subject: "switchyard.deep.y", payload: #"{"fine":true}"#)
        await bus.wait("the refusal and the next message") { bus in
            !bus.actions("fleet/failed").isEmpty && !bus.actions("deep/y").isEmpty
        }
        let failure = try #require(bus.actions("fleet/failed").first)
        #expect(failure.payload["kind"] == "invalid-message")
        #expect(failure.payload["message"]?.stringValue?.contains("nested deeper than 128") == true)
        #expect(bus.actions("deep/x").isEmpty)
        #expect(await bus.stop() == 0)
        let again = try fleet.start("bus-deep", [bridge])
        await again.wait("the bus to start again") { $0.stderr.contains("ready:") }
        #expect(await again.stop() == 0)
    }
}
