import SwitchyardTestSupport
import Testing
@testable import Switchyard
@testable import SwitchyardBus
@testable import SwitchyardDoors
@testable import SwitchyardIO

/// The control socket's protocol on an embedded loop in front of a real bus: no socket, a
/// manual clock, the client's reads and the socket's room under the test's control.
struct ControlDoorTests {
    private func start(_ limits: ControlLimits = ControlLimits(), log: LogSink = LogSink(minimumLevel: .error)) async throws -> EmbeddedDoor<ControlHost> {
        try await EmbeddedDoor.start(log: log) { backend, log, loop in
            ControlServer.embedded(limits: limits, backend: backend, log: log, on: loop)
        }
    }

    private func dispatch(_ n: Int) -> String {
        #"{"op":"dispatch","action":{"type":"count/add","payload":\#(n)}}"# + "\n"
    }

    /// A dispatch is answered with its id once reduced; state and stats answer at once, after it.
    @Test func dispatchStateAndStats() async throws {
        let door = try await start()
        let client = door.connect()
        client.send(dispatch(5) + #"{"op":"state","path":"counter.total"}"# + "\n" + #"{"op":"stats"}"# + "\n")
        let replies = try await door.replies(3, from: client)
        #expect(replies[0]["ok"] == true)
        #expect(replies[0]["id"]?.intValue.map { $0 > 0 } == true)
        #expect(replies[1] == ["ok": true, "state": 5])
        #expect(replies[2]["stats"]?["name"] == "journaled")
        #expect(door.host.server.statistics.requests == 3)
        #expect(door.host.server.statistics.clients == 1)
        try await door.stop()
    }

    /// Every bad request gets an error reply with a code, and the connection stays usable.
    @Test func errorsKeepTheConnectionOpen() async throws {
        let door = try await start(ControlLimits(maximumLineLength: 256))
        let client = door.connect()
        let requests = ["{not json", #"{"op":"fly"}"#, #"{"path":"x"}"#, #"{"op":"dispatch","action":{"type":"Bad"}}"#,
                        #"{"op":"state","path":"nowhere.at.all"}"#, String(repeating: "x", count: 10_000)]
        client.send(requests.map { $0 + "\n" }.joined() + #"{"op":"state","path":"counter.count"}"# + "\n")
        let replies = try await door.replies(requests.count + 1, from: client)
        #expect(replies.dropLast().map { $0["error"]?["code"]?.stringValue ?? "none" }
                == ["malformed-json", "unknown-op", "missing-field", "invalid-action", "not-found", "line-too-long"])
        #expect(replies.last == ["ok": true, "state": 0])
        #expect(door.host.server.statistics.errors == 6)
        #expect(!client.channel.isClosed)
        try await door.stop()
    }

    /// Requests sent in one write are answered in order, each dispatch before what follows it,
    /// through a socket that takes 7 bytes at a time.
    @Test func pipelinedRequestsAreAnsweredInOrderThroughAFullSocket() async throws {
        let door = try await start()
        let client = door.connect()
        client.channel.writeCapacity = 0
        client.send((1...100).map { dispatch($0) + #"{"op":"state","path":"counter.count"}"# + "\n" }.joined())
        await door.until("every reply is sent") {
            client.channel.makeRoom(7)
            return client.lineCount >= 200
        }
        let replies = try client.takeLines(200).map { try JSON(parsing: $0) }
        var lastID = 0
        for n in 1...100 {
            let id = try #require(replies[2 * (n - 1)]["id"]?.intValue)
            #expect(id > lastID)
            lastID = id
            #expect(replies[2 * (n - 1) + 1]["state"] == .integer(Int64(n)))
        }
        try await door.stop()
    }

    /// Replies are never dropped for size: the watcher buffer limit bounds streams only.
    @Test func largeRepliesAreNeverDropped() async throws {
        let door = try await start(ControlLimits(watcherBufferBytes: 64))
        let client = door.connect()
        client.send(String(repeating: #"{"op":"stats"}"# + "\n", count: 20))
        let replies = try await door.replies(20, from: client)
        #expect(replies.allSatisfy { $0["ok"] == true && $0["stats"] != nil })
        try await door.stop()
    }

    /// A watcher gets `ok`, then every matching action and each change of the watched state,
    /// and is `busy` for other requests.
    @Test func watchStreamsActionsAndState() async throws {
        let door = try await start()
        let watcher = door.connect()
        let sender = door.connect()
        watcher.send(#"{"op":"watch","actions":"count/*","state":"counter.total"}"# + "\n")
        let first = try await door.replies(2, from: watcher)
        #expect(first[0] == ["ok": true, "watching": ["actions": "count/*", "state": "counter.total"]])
        #expect(first[1] == ["ok": true, "path": "counter.total", "state": 0])
        sender.send(#"{"op":"dispatch","action":{"type":"other/thing"}}"# + "\n" + dispatch(4))
        _ = await door.lines(2, from: sender)
        let lines = try await door.replies(2, from: watcher)
        let action = try #require(lines.first { $0["action"] != nil })
        #expect(action["action"]?["type"] == "count/add")
        #expect(action["action"]?["source"] == "control")
        #expect(lines.first { $0["path"] != nil }?["state"] == 4)
        watcher.send(#"{"op":"stats"}"# + "\n")
        #expect(try await door.replies(1, from: watcher).first?["error"]?["code"] == "busy")
        #expect(door.host.server.statistics.watchers == 1)
        try await door.stop()
    }

    /// Requests sent before the client closes its side are carried out, then the door closes.
    @Test func requestsBeforeHalfCloseAreServed() async throws {
        let door = try await start()
        let client = door.connect()
        client.send(dispatch(2) + #"{"op":"state","path":"counter.total"}"#)
        client.channel.feedEnd()
        let replies = try await door.replies(2, from: client)
        #expect(replies[0]["ok"] == true)
        #expect(replies[1]["state"] == 2)
        await door.until("the connection closes") { client.channel.isClosed }
        #expect(door.host.server.statistics.clients == 0)
        try await door.stop()
    }

    /// A connection that sends nothing for the idle timeout is told why and closed — on the
    /// manual clock, so the test takes no time and cannot be early or late.
    @Test func idleConnectionIsClosedAfterTheTimeout() async throws {
        var limits = ControlLimits()
        limits.idleTimeout = .seconds(60)
        let door = try await start(limits)
        let client = door.connect()
        door.loop.advance(by: .seconds(59))
        client.send(#"{"op":"state","path":"counter.count"}"# + "\n")
        #expect(try await door.replies(1, from: client) == [["ok": true, "state": 0]])
        door.loop.advance(by: .seconds(59))
        #expect(!client.channel.isClosed)
        door.loop.advance(by: .seconds(1))
        #expect(client.takeLines(1).first?.contains("idle-timeout") == true)
        #expect(client.channel.isClosed)
        #expect(door.host.server.statistics.idleClosed == 1)
        try await door.stop()
    }

    /// A watcher that never reads is dropped and counted, told `too-slow` if it comes back
    /// within the grace, else closed at its end; another watcher and the bus carry on.
    @Test func watcherThatNeverReadsIsDroppedAndClosedAfterTheGrace() async throws {
        let log = LogCollector()
        let door = try await start(ControlLimits(watcherBufferBytes: 4 << 10), log: log.sink)
        let stuck = door.connect()
        let reader = door.connect()
        stuck.send(#"{"op":"watch","actions":"count/*"}"# + "\n")
        reader.send(#"{"op":"watch","actions":"count/*"}"# + "\n")
        _ = await door.lines(1, from: stuck)
        _ = await door.lines(1, from: reader)
        stuck.channel.writeCapacity = 0
        // The reader takes each window before the next is sent, so only the stuck one piles up.
        let window = 10
        var received = 0
        for start in stride(from: 0, to: 200, by: window) {
            for n in start..<(start + window) {
                await door.bus.dispatch(BusAction(type: "count/add", payload: ["n": .integer(Int64(n)), "pad": .string(String(repeating: "p", count: 100))], source: "test"))
            }
            received += await door.lines(window, from: reader).count
        }
        #expect(received == 200)
        #expect(door.host.server.statistics.watchersDropped == 1)
        #expect(!stuck.channel.isClosed)
        door.loop.advance(by: ControlHost.dropGrace)
        await door.until("the dropped watcher closes") { stuck.channel.isClosed }
        #expect(door.host.server.statistics.watchers == 1)
        #expect(log.lines.contains { $0.contains("dropped a watcher") })
        #expect(!reader.channel.isClosed)
        try await door.stop()
    }

    /// Stopping closes an idle connection at once and lets one with a dispatch in flight have
    /// its reply first.
    @Test func stopClosesIdleConnections() async throws {
        let door = try await start()
        let idle = door.connect()
        let busy = door.connect()
        busy.send(dispatch(1))
        _ = await door.lines(1, from: busy)
        try await door.stop()
        #expect(idle.channel.isClosed)
        #expect(busy.channel.isClosed)
        #expect(door.host.connections.finished)
    }
}
