@testable import GPSDPlugin
import SwitchyardTestSupport
import Synchronization

/// A transport whose connections a test drives by hand: no sockets, no threads.
final class ScriptedTransport: GPSDTransport {
    private let opened = Mutex<[ScriptedConnection]>([])

    func open(
        _ endpoint: GPSDEndpoint, options: LineSocket.Options,
        events: @escaping @Sendable (LineSocketEvent) -> Void,
        shouldRead: @escaping @Sendable () -> Bool
    ) -> any GPSDConnection {
        let connection = ScriptedConnection(deliver: events)
        opened.withLock { $0.append(connection) }
        return connection
    }

    /// The connections opened so far.
    var connections: [ScriptedConnection] { opened.withLock { $0 } }

    /// Waits until connection number `index` (from 0) has been opened; `nil` after a
    /// generous, scaled real-time bound.
    func connection(_ index: Int) async -> ScriptedConnection? {
        guard await eventually({ opened.withLock { $0.count > index } }) else { return nil }
        return opened.withLock { $0[index] }
    }
}

/// One scripted connection: the test pushes socket events; sends and closes are recorded.
final class ScriptedConnection: GPSDConnection {
    private let deliver: @Sendable (LineSocketEvent) -> Void
    private let state = Mutex<(sent: [String], closed: Bool)>(([], false))

    init(deliver: @escaping @Sendable (LineSocketEvent) -> Void) {
        self.deliver = deliver
    }

    func send(_ bytes: [UInt8]) -> Bool {
        state.withLock { state in
            guard !state.closed else { return false }
            state.sent.append(String(decoding: bytes, as: UTF8.self))
            return true
        }
    }

    func close() { state.withLock { $0.closed = true } }

    /// Nothing: a scripted connection delivers what the test pushes, paused or not.
    func resumeReading() {}

    /// What the session sent, as text.
    var sent: [String] { state.withLock { $0.sent } }
    /// Whether the session closed the connection.
    var isClosed: Bool { state.withLock { $0.closed } }

    /// Reports an event as the socket thread would.
    func push(_ event: LineSocketEvent) { deliver(event) }

    /// Reports lines of text.
    func push(lines: String...) {
        for line in lines { deliver(.line(Array(line.utf8))) }
    }
}
