import Glibc
import SwitchyardIO

/// The control socket of a bus: newline-delimited JSON requests over a Unix socket.
///
/// All socket I/O happens on the process's event loop (``EventLoop/shared()``), one thread
/// shared with every plugin's sockets, so no cooperative thread ever blocks on a client.
/// Dispatches and watchers run as tasks that hand their output back through each
/// connection's bounded outbox and fire the server's ``LoopSignal``; firings are coalesced,
/// so a busy stream costs the loop at most one turn per batch.
final class ControlServer: SocketServer {
    let path: String
    let limits: ControlLimits
    let backend: DoorBackend
    let log: LogSink
    let lifecycle: ServerLifecycle<ControlStatistics>

    private init(path: String, limits: ControlLimits, backend: DoorBackend, log: LogSink, listener: Int32,
                 signals: (outbox: LoopSignal, stop: LoopSignal)) {
        self.path = path
        self.limits = limits
        self.backend = backend
        self.log = log
        lifecycle = ServerLifecycle(listener: listener, signals: signals, statistics: ControlStatistics(socketPath: path))
    }

    /// Listens on `path` and starts serving on the process's event loop.
    /// - Throws: ``ListenFailure`` when a live bus listens on `path`, the socket cannot
    ///   be created or the event loop cannot start.
    static func start(path: String, limits: ControlLimits, backend: DoorBackend, log: LogSink) throws(ListenFailure) -> ControlServer {
        let loop = try sharedLoop()
        let listener = try UnixSocket.listen(at: path, backlog: 128)
        let server = ControlServer(path: path, limits: limits, backend: backend, log: log, listener: listener, signals: signals(on: loop))
        loop.execute { thread in ControlHost.start(server: server, on: thread) }
        return server
    }

    /// A server without a socket, served on the embedded `loop`: the test hands its host the
    /// connections (``ConnectionHost/adopt(_:)``) and runs the loop's turns.
    static func embedded(limits: ControlLimits, backend: DoorBackend, log: LogSink, on loop: EmbeddedLoop) -> ControlHost {
        let server = ControlServer(path: "", limits: limits, backend: backend, log: log, listener: -1, signals: signals(on: loop))
        return ControlHost.start(server: server, on: loop)
    }

    /// The loop side has closed every connection: the listener closes and the socket file goes.
    func markExited() {
        lifecycle.markExited { if !path.isEmpty { unlink(path) } }
    }
}
