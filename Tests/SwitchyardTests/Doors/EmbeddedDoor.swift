import SwitchyardTestSupport
import Testing
@testable import Switchyard
@testable import SwitchyardBus
@testable import SwitchyardDoors
@testable import SwitchyardIO

/// A door's host on an ``EmbeddedLoop`` in front of a real in-process bus, without a socket:
/// the test connects ``EmbeddedClient``s, feeds them bytes and runs the loop's turns on a
/// manual clock, so the door's protocol, its timeouts and its backpressure are tested
/// deterministically, as swift-nio tests a handler on its `EmbeddedChannel`.
///
/// Not `Sendable`: one test task drives it. What the bus does happens on its own threads, so
/// ``until(_:_:)`` turns the loop until a condition holds (with a scaled deadline).
final class EmbeddedDoor<Host: ConnectionHost> {
    let loop: EmbeddedLoop
    let host: Host
    let bus: Bus
    private let running: Task<Void, any Error>
    private let directory: JournalTestDirectory

    private init(loop: EmbeddedLoop, host: Host, bus: Bus, running: Task<Void, any Error>, directory: JournalTestDirectory) {
        self.loop = loop
        self.host = host
        self.bus = bus
        self.running = running
        self.directory = directory
    }

    /// Starts a journaled bus with `plugins` (a counter by default) and no doors of its own,
    /// and a host `make` builds over the bus's backend on a fresh embedded loop.
    static func start(plugins: String = #"[{"name": "counter", "kind": "counter"}]"#, log: LogSink = LogSink(minimumLevel: .error),
                      _ make: (DoorBackend, LogSink, EmbeddedLoop) -> Host) async throws -> EmbeddedDoor {
        let directory = try JournalTestDirectory()
        let registry = journalRegistry()
        let configuration = try journaledConfiguration(directory.path + "/data", plugins: plugins, journal: #"{"fsync": "never"}"#, registry: registry)
        let bus = try Bus(configuration: configuration, registry: registry, services: BusServices(), log: log)
        let running = Task { try await bus.run() }
        guard await bus.waitUntilReady() else {
            try await running.value
            throw EmbeddedDoorFailure(description: "the bus did not start")
        }
        let loop = EmbeddedLoop()
        let host = make(DoorBackend(bus: bus), log, loop)
        return EmbeddedDoor(loop: loop, host: host, bus: bus, running: running, directory: directory)
    }

    /// A client connected to the host.
    func connect() -> EmbeddedClient {
        let channel = EmbeddedChannel(loop: loop)
        host.adopt(channel)
        return EmbeddedClient(channel: channel)
    }

    /// Runs loop turns until `condition` holds, yielding between them so the bus's threads and
    /// the door's tasks get on; records an issue naming `description` after the (scaled)
    /// deadline.
    func until(_ description: String, sourceLocation: SourceLocation = #_sourceLocation, _ condition: () -> Bool) async {
        await waitUntil(description, sourceLocation: sourceLocation) {
            loop.runTurn()
            return condition()
        }
    }

    /// Runs turns until the client has `count` lines, and takes them.
    func lines(_ count: Int, from client: EmbeddedClient, sourceLocation: SourceLocation = #_sourceLocation) async -> [String] {
        await until("\(count) lines arrive", sourceLocation: sourceLocation) { client.lineCount >= count }
        return client.takeLines(count)
    }

    /// Runs turns until the client has `count` lines, and takes them as JSON.
    func replies(_ count: Int, from client: EmbeddedClient, sourceLocation: SourceLocation = #_sourceLocation) async throws -> [JSON] {
        try await lines(count, from: client, sourceLocation: sourceLocation).map { try JSON(parsing: $0) }
    }

    /// Stops the host with `grace` (advancing the manual clock past it when it must) and then
    /// the bus.
    func stop(grace: Duration = .seconds(1)) async throws {
        let server = host.server
        let stopped = Task { await server.shutDown(grace: grace) }
        await until("the door stops") { host.connections.finished || { loop.advance(by: grace); return false }() }
        await stopped.value
        bus.stop()
        try await running.value
    }
}

struct EmbeddedDoorFailure: Error, CustomStringConvertible {
    var description: String
}

/// The peer of an ``EmbeddedChannel``: sends text, collects what the door writes as lines.
final class EmbeddedClient {
    let channel: EmbeddedChannel
    private var received: [UInt8] = []

    init(channel: EmbeddedChannel) {
        self.channel = channel
    }

    /// Sends `text` as the peer.
    func send(_ text: String) {
        channel.feed(Array(text.utf8))
    }

    /// Everything the door wrote and the test has not taken, as text.
    func takeText() -> String {
        collect()
        defer { received = [] }
        return String(decoding: received, as: UTF8.self)
    }

    /// How many whole lines have arrived.
    var lineCount: Int {
        collect()
        return received.count { $0 == 10 }
    }

    /// Takes the first `count` whole lines.
    func takeLines(_ count: Int) -> [String] {
        collect()
        var lines: [String] = []
        while lines.count < count, let end = received.firstIndex(of: 10) {
            lines.append(String(decoding: received[..<end], as: UTF8.self))
            received.removeSubrange(...end)
        }
        return lines
    }

    private func collect() {
        received += channel.takeWritten()
    }
}
