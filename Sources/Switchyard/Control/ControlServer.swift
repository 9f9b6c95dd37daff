import Glibc
import Synchronization
import SwitchyardIO
import SwitchyardStreams

/// The control socket of a bus: newline-delimited JSON requests over a Unix socket.
///
/// All socket I/O happens on the process's event loop (``EventLoop/shared()``), one thread
/// shared with every plugin's sockets, so no cooperative thread ever blocks on a client.
/// Dispatches and watchers run as tasks that hand their output back through each
/// connection's bounded outbox and fire the server's ``LoopSignal``; firings are coalesced,
/// so a busy stream costs the loop at most one turn per batch.
final class ControlServer: Sendable {
    let path: String
    let limits: ControlLimits
    let backend: ControlBackend
    let log: LogSink
    let listener: Int32
    let loop: EventLoop
    /// Tells the loop side to look at the outboxes.
    let outboxSignal: LoopSignal
    /// Tells the loop side that ``stopDeadline`` was set.
    let stopSignal: LoopSignal
    private let stopAt = Mutex<ContinuousClock.Instant?>(nil)
    private let counters: Mutex<ControlStatistics>
    private let exited = CurrentValue(false)

    private init(path: String, limits: ControlLimits, backend: ControlBackend, log: LogSink, listener: Int32, loop: EventLoop) {
        self.path = path
        self.limits = limits
        self.backend = backend
        self.log = log
        self.listener = listener
        self.loop = loop
        self.outboxSignal = loop.makeSignal()
        self.stopSignal = loop.makeSignal()
        self.counters = Mutex(ControlStatistics(socketPath: path))
    }

    /// Listens on `path` and starts serving on the process's event loop.
    /// - Throws: ``UnixSocket/Failure`` when a live bus listens on `path`, the socket cannot
    ///   be created or the event loop cannot start.
    static func start(path: String, limits: ControlLimits, backend: ControlBackend, log: LogSink) throws(UnixSocket.Failure) -> ControlServer {
        let loop: EventLoop
        do {
            loop = try EventLoop.shared()
        } catch {
            throw UnixSocket.Failure(description: "cannot start the event loop: \(error)")
        }
        let listener = try UnixSocket.listen(at: path, backlog: 128)
        let server = ControlServer(path: path, limits: limits, backend: backend, log: log, listener: listener, loop: loop)
        loop.execute { thread in ControlHost.start(server: server, on: thread) }
        return server
    }

    /// Wakes the loop side to look at outboxes; cheap when a wake-up is already pending.
    func wake() {
        outboxSignal.fire()
    }

    /// Stops taking connections and requests, lets in-flight replies and watcher streams
    /// flush for up to `grace`, closes every connection and removes the socket file.
    func shutDown(grace: Duration) async {
        stopAt.withLock { $0 = ContinuousClock.now.advanced(by: grace) }
        stopSignal.fire()
        for await done in exited.subscribe() where done { return }
    }

    /// When the loop side must close everything; `nil` while the server runs.
    var stopDeadline: ContinuousClock.Instant? {
        stopAt.withLock { $0 }
    }

    /// The loop side has closed every connection: the listener closes and the socket file goes.
    func markExited() {
        close(listener)
        unlink(path)
        exited.send(true)
        exited.finish()
    }

    /// The server's counters.
    var statistics: ControlStatistics {
        counters.withLock { $0 }
    }

    func count(_ update: (inout ControlStatistics) -> Void) {
        counters.withLock { update(&$0) }
    }
}
