import Foundation
import SwitchyardBus
import SwitchyardTestSupport
import Testing

@testable import NATSPlugin

/// One connection against a real nats-server: handshake, publish and subscribe, errors.
@Suite(NATSServer.requirement)
struct NATSConnectionTests {
    /// A connection subscribes, publishes with headers and receives its message back when echo is on.
    @Test func publishesAndReceives() async throws {
        let server = try await NATSServer()
        let connection = try NATSConnection.open(NATSEndpoint(host: "127.0.0.1", port: server.port), options: NATSConnectOptions(echo: true))
        defer { connection.close() }
        let first = try #require(await connection.next())
        guard case .connected(let info)? = first.first else {
            Issue.record("expected connected, got \(first)")
            return
        }
        #expect(info.headers && info.jetStream && info.maxPayload == 1 << 20)
        #expect(connection.serverInfo?.version.hasPrefix("2.") == true)
        var bytes: [UInt8] = []
        NATSCommand.subscribe(subject: "switchyard.>", sid: "2", into: &bytes)
        NATSCommand.publish(subject: "switchyard.demo.x", headers: NATSHeaders([.init("Switchyard-Origin", "probe")]).encoded, payload: Array("{}".utf8), into: &bytes)
        #expect(connection.write(bytes))
        let events = try #require(await connection.next())
        guard case .message(let message)? = events.first else {
            Issue.record("expected a message, got \(events)")
            return
        }
        #expect(message.subject == "switchyard.demo.x" && message.sid == "2")
        #expect(message.headers?["Switchyard-Origin"] == "probe")
        #expect(message.payload == Array("{}".utf8))
        connection.close()
        #expect(!connection.write(bytes))
        var last: [NATSConnectionEvent] = []
        while let more = await connection.next() { last = more }
        #expect(last.last == .closed(.closedByClient))
    }

    /// With echo off (the bridge's setting) a connection never receives its own publishes.
    @Test func noEcho() async throws {
        let server = try await NATSServer()
        let quiet = try #require(try await NATSProbe.connect(port: server.port))
        let listener = try #require(try await NATSProbe.connect(port: server.port))
        defer {
            quiet.close()
            listener.close()
        }
        var subscribe: [UInt8] = []
        NATSCommand.subscribe(subject: "demo.>", sid: "2", into: &subscribe)
        quiet.connection.write(subscribe)
        listener.connection.write(subscribe)
        _ = await listener.request("$JS.API.INFO")
        _ = await quiet.request("$JS.API.INFO")
        var publish: [UInt8] = []
        NATSCommand.publish(subject: "demo.one", payload: Array("1".utf8), into: &publish)
        NATSCommand.publish(subject: "demo.two", payload: Array("2".utf8), into: &publish)
        quiet.connection.write(publish)
        var received: [String] = []
        while received.count < 2, let events = await listener.next() {
            for case .message(let message) in events { received.append(message.subject) }
        }
        #expect(received == ["demo.one", "demo.two"])
        let (reply, others) = await quiet.request("$JS.API.INFO")
        #expect(reply?["type"] == "io.nats.jetstream.api.v1.account_info_response")
        #expect(others.isEmpty)
    }

    /// Thousands of publishes written one at a time, as the bridge writes them, all reach a subscriber promptly.
    @Test func manySmallWrites() async throws {
        let server = try await NATSServer()
        let publisher = try #require(try await NATSProbe.connect(port: server.port))
        let subscriber = try #require(try await NATSProbe.connect(port: server.port))
        defer { publisher.close() }
        var subscribe: [UInt8] = []
        NATSCommand.subscribe(subject: "many", sid: "2", into: &subscribe)
        subscriber.connection.write(subscribe)
        _ = await subscriber.request("$JS.API.INFO")
        let count = 10_000
        let received = Task {
            var seen = 0
            while seen < count, let events = await subscriber.next() {
                seen += events.filter { if case .message = $0 { true } else { false } }.count
            }
            return seen
        }
        // Should bytes stall in the connection, the subscriber is closed after a while and
        // the count comes up short instead of the test hanging.
        let watchdog = Task {
            try await Task.sleep(for: TestTimeouts.scaled(.seconds(60)))
            subscriber.close()
        }
        for _ in 0..<count {
            var bytes: [UInt8] = []
            NATSCommand.publish(subject: "many", payload: Array("{}".utf8), into: &bytes)
            publisher.connection.write(bytes)
        }
        #expect(await received.value == count)
        watchdog.cancel()
        subscriber.close()
    }

    /// An unreachable port, wrong credentials and a too-large publish end the connection with their reason.
    @Test func failures() async throws {
        let free = try unusedLocalPort()
        let unreachable = try NATSConnection.open(NATSEndpoint(host: "127.0.0.1", port: free), options: NATSConnectOptions())
        let refused = try #require(await unreachable.next())
        #expect(refused.map(\.description) == [".closed(unreachable)"])

        let guarded = try await NATSServer(arguments: ["--user", "alice", "--pass", "secret"])
        let wrong = try NATSConnection.open(NATSEndpoint(host: "127.0.0.1", port: guarded.port), options: NATSConnectOptions(credentials: .user("alice", password: "nope")))
        #expect(try #require(await wrong.next()) == [.closed(.authorization("Authorization Violation"))])
        let right = try #require(try await NATSProbe.connect(port: guarded.port, credentials: .user("alice", password: "secret")))
        var huge: [UInt8] = []
        NATSCommand.publish(subject: "x", payload: [UInt8](repeating: 1, count: (1 << 20) + 1), into: &huge)
        right.connection.write(huge)
        var ending: [NATSConnectionEvent] = []
        while let events = await right.next() { ending += events }
        // The server answers with -ERR and closes; depending on timing the client reads the
        // error, the end of the stream, or a reset while it is still writing.
        let closing = ending.last?.description ?? "none"
        #expect([".closed(server)", ".closed(closed)", ".closed(io)"].contains(closing), "got \(ending)")
    }
}

extension NATSConnectionEvent {
    /// The event's case and, for a closing event, its error kind: enough to compare events
    /// whose errors carry system messages.
    var description: String {
        switch self {
        case .closed(let error): return ".closed(\(error.kind))"
        case .connected: return ".connected"
        case .infoChanged: return ".infoChanged"
        case .message(let message): return ".message(\(message.subject))"
        case .serverError(let text): return ".serverError(\(text))"
        case .drained: return ".drained"
        case .flushed: return ".flushed"
        }
    }
}
