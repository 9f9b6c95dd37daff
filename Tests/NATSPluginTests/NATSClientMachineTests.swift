import SwitchyardBus
import Testing

@testable import NATSPlugin

/// The handshake, keep-alive and error handling of one connection, without I/O.
struct NATSClientMachineTests {
    private static let info = #"INFO {"server_id":"S","version":"2.9.10","headers":true,"max_payload":1048576} "# + "\r\n"
    private let timing = NATSClientMachine.Timing(connectTimeout: .seconds(5), pingInterval: .seconds(30), maximumPingsOut: 2)

    private func text(_ output: NATSClientMachine.Output) -> String {
        String(decoding: output.bytes, as: UTF8.self)
    }

    private func connected(credentials: NATSCredentials? = nil) -> NATSClientMachine {
        var machine = NATSClientMachine(options: NATSConnectOptions(credentials: credentials), timing: timing, now: .zero)
        _ = machine.receive(Array(Self.info.utf8), now: .milliseconds(1))
        _ = machine.receive(Array("PONG\r\n".utf8), now: .milliseconds(2))
        return machine
    }

    /// INFO is answered with CONNECT (echo off, headers on) and PING; the PONG completes the handshake.
    @Test func handshake() throws {
        var machine = NATSClientMachine(options: NATSConnectOptions(credentials: .token("t")), timing: timing, now: .zero)
        let answer = machine.receive(Array(Self.info.utf8), now: .milliseconds(1))
        #expect(text(answer).hasPrefix("CONNECT {"))
        #expect(text(answer).hasSuffix("}\r\nPING\r\n"))
        #expect(text(answer).contains(#""echo":false"#))
        #expect(text(answer).contains(#""auth_token":"t""#))
        #expect(answer.events.isEmpty && answer.close == nil)
        #expect(machine.phase == .awaitingPong)
        let done = machine.receive(Array("PONG\r\n".utf8), now: .milliseconds(2))
        #expect(done.events == [.connected(NATSServerInfo(serverID: "S", serverName: "S", version: "2.9.10", headers: true))])
        #expect(machine.phase == .connected)
        #expect(machine.nextDeadline == .milliseconds(2) + .seconds(30))
    }

    /// Refused credentials, TLS, a server without headers and silence each end the handshake with their reason.
    @Test func handshakeFailures() {
        var refused = NATSClientMachine(options: NATSConnectOptions(), timing: timing, now: .zero)
        _ = refused.receive(Array(Self.info.utf8), now: .zero)
        #expect(refused.receive(Array("-ERR 'Authorization Violation'\r\n".utf8), now: .zero).close == .authorization("Authorization Violation"))
        var tls = NATSClientMachine(options: NATSConnectOptions(), timing: timing, now: .zero)
        #expect(tls.receive(Array(#"INFO {"headers":true,"tls_required":true}"#.utf8) + [13, 10], now: .zero).close == .tlsRequired)
        var old = NATSClientMachine(options: NATSConnectOptions(), timing: timing, now: .zero)
        #expect(old.receive(Array("INFO {}\r\n".utf8), now: .zero).close == .headersUnsupported)
        var silent = NATSClientMachine(options: NATSConnectOptions(), timing: timing, now: .zero)
        #expect(silent.tick(now: .seconds(4)).close == nil)
        #expect(silent.tick(now: .seconds(5)).close == .timeout("waiting for the server's INFO"))
        var unanswered = NATSClientMachine(options: NATSConnectOptions(), timing: timing, now: .zero)
        _ = unanswered.receive(Array(Self.info.utf8), now: .zero)
        #expect(unanswered.tick(now: .seconds(6)).close == .timeout("waiting for the server to accept CONNECT"))
        var rude = NATSClientMachine(options: NATSConnectOptions(), timing: timing, now: .zero)
        #expect(rude.receive(Array("PING\r\n".utf8), now: .zero).close == .protocolError(.unknownOperation("expected INFO first")))
        var garbage = NATSClientMachine(options: NATSConnectOptions(), timing: timing, now: .zero)
        #expect(garbage.receive(Array("WHAT\r\n".utf8), now: .zero).close == .protocolError(.unknownOperation("WHAT")))
        #expect(garbage.phase == .closed)
    }

    /// The server's pings are answered at once, before and after the handshake.
    @Test func answersPings() {
        var machine = connected()
        #expect(text(machine.receive(Array("PING\r\nPING\r\n".utf8), now: .seconds(1))) == "PONG\r\nPONG\r\n")
    }

    /// A quiet server is pinged every interval; a PONG clears the count; two unanswered pings make the connection stale.
    @Test func keepAlive() {
        var machine = connected()
        #expect(machine.tick(now: .seconds(10)).bytes.isEmpty)
        #expect(text(machine.tick(now: .seconds(31))) == "PING\r\n")
        _ = machine.receive(Array("PONG\r\n".utf8), now: .seconds(31))
        #expect(text(machine.tick(now: .seconds(62))) == "PING\r\n")
        #expect(text(machine.tick(now: .seconds(93))) == "PING\r\n")
        #expect(machine.tick(now: .seconds(124)).close == .stale(pings: 2))
    }

    /// A flush is a ping whose answer is reported; keep-alive pings in between are told apart by order.
    @Test func flushes() {
        var early = NATSClientMachine(options: NATSConnectOptions(), timing: timing, now: .zero)
        #expect(early.flush().bytes.isEmpty)
        var machine = connected()
        #expect(text(machine.flush()) == "PING\r\n")
        #expect(text(machine.tick(now: .seconds(33))) == "PING\r\n")
        #expect(text(machine.flush()) == "PING\r\n")
        let answers = machine.receive(Array("PONG\r\nPONG\r\nPONG\r\n".utf8), now: .seconds(34))
        #expect(answers.events == [.flushed, .flushed])
    }

    /// Permission errors are reported and keep the connection; other errors end it.
    @Test func serverErrors() {
        var machine = connected()
        let permission = machine.receive(Array("-ERR 'Permissions Violation for Publish to \"x\"'\r\n".utf8), now: .seconds(1))
        #expect(permission.events == [.serverError("Permissions Violation for Publish to \"x\"")])
        #expect(permission.close == nil)
        let fatal = machine.receive(Array("-ERR 'Maximum Payload Violation'\r\n".utf8), now: .seconds(2))
        #expect(fatal.close == .serverError("Maximum Payload Violation"))
        #expect(machine.phase == .closed)
    }

    /// Messages, and INFO updates after the handshake, become events in order.
    @Test func deliversMessages() {
        var machine = connected()
        let output = machine.receive(Array("MSG a.b 2 3\r\nabc\r\nINFO {\"headers\":true,\"max_payload\":10}\r\n+OK\r\n".utf8), now: .seconds(1))
        #expect(output.events == [
            .message(NATSMessage(subject: "a.b", sid: "2", payload: Array("abc".utf8))),
            .infoChanged(NATSServerInfo(maxPayload: 10, headers: true)),
        ])
        #expect(machine.info?.maxPayload == 10)
    }
}
