import Glibc
import SwitchyardIO

/// The loop-side state every ``ConnectionHost`` keeps.
struct HostedConnections<Connection: AnyObject> {
    /// Accepts on the server's listener until the host stops.
    var acceptor: Acceptor?
    /// The open connections.
    var open: [ObjectIdentifier: Connection] = [:]
    /// Set once the server is told to stop: no connection is admitted or served a new
    /// request from then on.
    var stopDeadline: ContinuousClock.Instant?
    /// Finishes the host at ``stopDeadline``.
    var stopTimer: TimerID?
    /// The host has closed everything and told the server.
    var finished = false
    /// Whether running out of descriptors was logged since the last connection came in.
    var loggedDescriptorExhaustion = false
}

/// The loop-side half of a ``SocketServer`` (the control socket, the HTTP server): admits
/// connections, stops and closes them, all on the event loop's thread.
///
/// What a connection does with its bytes is each host's own (``service(_:)``); admitting,
/// stopping, the stop deadline and closing are the same for every server and written here.
protocol ConnectionHost: AnyObject {
    /// The connections the host serves.
    associatedtype Connection: HostedConnection where Connection.Host == Self
    /// The server whose listener the host serves.
    associatedtype Server: SocketServer

    /// What the host's log lines start with (`control`, `http`).
    static var logName: String { get }

    /// The server.
    var server: Server { get }
    /// The loop the host runs on: the process's event loop, or an embedded one in a test.
    var thread: any HostLoop { get }
    /// The acceptor, the open connections and the stop state.
    var connections: HostedConnections<Connection> { get set }

    /// Collects the connection's events, serves it, sends, and closes it when it is done.
    func service(_ connection: Connection)
    /// A connection over `channel`, not yet served.
    func makeConnection(_ channel: any StreamChannel) -> Connection
    /// Arms what a new connection needs armed (its idle timer).
    func opened(_ connection: Connection)
    /// The type of the server's count of accepted connections.
    associatedtype AcceptedCount: FixedWidthInteger
    /// Where the server's statistics count connections: accepted since it started, open now,
    /// and of those streaming (watchers, event streams).
    static var counts: ConnectionCounts<Server.Statistics, AcceptedCount> { get }
    /// Cancels the timers of the host's own (the control host's idle sweep) when it stops.
    func cancelHostTimers()
}

extension ConnectionHost {
    /// Serves the server's listener: the server's signals look at every outbox and stop the
    /// host, and the acceptor reports to `accepted`. The host keeps itself alive through
    /// them until it finishes. When the listener cannot be served, `failed` is logged and the
    /// host finishes. A server without a listener (a test's, on an embedded loop) is served
    /// the connections the test ``adopt(_:)``s.
    func start(acceptPause: Duration, failed: String, accepted: @escaping (Self, Acceptor.Event) -> Void) {
        thread.setSignalHandler(server.outboxSignal) { self.serviceAll() }
        thread.setSignalHandler(server.stopSignal) { self.stop() }
        guard server.listener >= 0 else { return }
        do {
            connections.acceptor = try thread.accept(on: server.listener, pause: acceptPause) { accepted(self, $0) }
        } catch {
            server.log.write(.error, "\(failed): \(error)")
            finish()
        }
    }

    /// Handles what the acceptor reports. A connection goes to `admit`. Out of descriptors,
    /// the exhaustion is logged once until a connection comes in (saying connections are
    /// refused with `refusal`), and `refuseWaiting` hears of each time with the waiting client
    /// the acceptor took with its spare descriptor, if any, which it must tell why and close
    /// (it would otherwise hang in the backlog).
    func handle(_ event: Acceptor.Event, refusal: String, admit: (Int32) -> Void, refuseWaiting: (Int32?) -> Void) {
        switch event {
        case .connection(let descriptor):
            connections.loggedDescriptorExhaustion = false
            admit(descriptor)
        case .outOfDescriptors(let code, let refused):
            if !connections.loggedDescriptorExhaustion {
                connections.loggedDescriptorExhaustion = true
                server.log.write(.warning, "\(Self.logName): out of file descriptors (\(IOError.text(code))); refusing connections with \(refusal) until some close")
            }
            refuseWaiting(refused)
        case .failed(let code):
            server.log.write(.warning, "\(Self.logName): accept failed: \(IOError.text(code)); pausing")
        }
    }

    /// Registers `descriptor` on the loop and serves it as a connection; when the loop cannot
    /// take it, logs the reason and `refuse`s the descriptor instead.
    func open(_ descriptor: Int32, refuse: (Int32) -> Void) {
        let channel: any StreamChannel
        do {
            channel = try thread.channel(for: descriptor)
        } catch {
            server.log.write(.warning, "\(Self.logName): cannot serve a connection: \(error)")
            refuse(descriptor)
            return
        }
        adopt(channel)
    }

    /// Serves `channel` as a new connection (an accepted socket's, or a test's embedded
    /// one), counted and with its timers armed, and returns it.
    @discardableResult
    func adopt(_ channel: any StreamChannel) -> Connection {
        let connection = makeConnection(channel)
        channel.handler = connection
        connections.open[ObjectIdentifier(connection)] = connection
        countOpened()
        opened(connection)
        return connection
    }

    /// Counts a new connection in.
    private func countOpened() {
        server.count { statistics in
            statistics[keyPath: Self.counts.accepted] += 1
            statistics[keyPath: Self.counts.open] += 1
        }
    }

    /// Counts a closing connection out; runs before its socket closes, so a client that sees
    /// the end sees the count too.
    private func countClosed(_ connection: Connection) {
        server.count { statistics in
            statistics[keyPath: Self.counts.open] -= 1
            if connection.isStreaming { statistics[keyPath: Self.counts.streaming] -= 1 }
        }
    }

    /// Tells a client the host will not serve why (`reply`, sent without waiting: the socket
    /// is new, so its buffer takes it), counts it refused — with what `alsoCount` adds, under
    /// the same lock — and closes it. Counted first, so a client that sees the end sees the
    /// counts too (as ``countClosed(_:)``).
    func refuse(_ descriptor: Int32, with reply: [UInt8], alsoCount: (inout Server.Statistics) -> Void = { _ in }) {
        _ = reply.withUnsafeBytes { Sockets.send(descriptor, $0) }
        server.count { statistics in
            statistics[keyPath: Self.counts.refused] += 1
            alsoCount(&statistics)
        }
        Glibc.close(descriptor)
    }

    /// Whether `connection` is still open.
    func isOpen(_ connection: Connection) -> Bool {
        connections.open[ObjectIdentifier(connection)] != nil
    }

    func serviceAll() {
        for connection in Array(connections.open.values) { service(connection) }
    }

    /// Stops accepting and taking requests; idle connections close now, the rest once done
    /// or at the stop deadline.
    func stop() {
        guard connections.stopDeadline == nil, !connections.finished, let deadline = server.stopDeadline else { return }
        connections.stopDeadline = deadline
        connections.acceptor?.stop()
        connections.acceptor = nil
        cancelHostTimers()
        connections.stopTimer = thread.schedule(at: deadline) { [weak self] in
            guard let self else { return }
            self.connections.stopTimer = nil
            self.finish()
        }
        serviceAll()
        if connections.open.isEmpty { finish() }
    }

    /// Closes every connection, lets go of the loop and tells the server it has exited.
    func finish() {
        guard !connections.finished else { return }
        connections.finished = true
        for connection in Array(connections.open.values) { close(connection) }
        connections.acceptor?.stop()
        connections.acceptor = nil
        if let stopTimer = connections.stopTimer { thread.cancel(stopTimer) }
        cancelHostTimers()
        thread.removeSignal(server.outboxSignal)
        thread.removeSignal(server.stopSignal)
        server.markExited()
    }

    /// Sends what `connection` still can, counts it out and closes it; the last one to close
    /// while stopping finishes the host. A streaming connection (a watcher, an event stream)
    /// may have held up to its outbox's bound, so the heap's free memory goes back to the
    /// system after it.
    func close(_ connection: Connection) {
        guard connections.open.removeValue(forKey: ObjectIdentifier(connection)) != nil else { return }
        connection.flush()
        if let timer = connection.timer { thread.cancel(timer.id) }
        connection.timer = nil
        countClosed(connection)
        let streamed = connection.producer != nil
        connection.close()
        if streamed { FreedMemory.release() }
        if connections.stopDeadline != nil, connections.open.isEmpty { finish() }
    }
}

/// Where a server's statistics count its connections (see ``ConnectionHost/counts``).
struct ConnectionCounts<Statistics, Accepted: FixedWidthInteger> {
    /// Connections accepted since the server started.
    var accepted: WritableKeyPath<Statistics, Accepted>
    /// Connections open now.
    var open: WritableKeyPath<Statistics, Int>
    /// Of those, connections streaming (a watcher, an event stream).
    var streaming: WritableKeyPath<Statistics, Int>
    /// Connections refused (at the limit, out of descriptors, not served).
    var refused: WritableKeyPath<Statistics, Accepted>
}
