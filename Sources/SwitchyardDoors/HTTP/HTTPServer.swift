import Glibc
import SwitchyardIO

/// The bus's HTTP/1.1 server: dashboard, metrics, health and the JSON API.
///
/// Built like the control server: every socket is served on the process's shared event loop
/// (``EventLoop/shared()``) by an ``HTTPHost``; dispatches and event streams run as tasks
/// that hand their bytes back through each connection's bounded outbox and fire the server's
/// ``LoopSignal``.
final class HTTPServer: SocketServer {
    let settings: HTTPSettings
    let limits: HTTPLimits
    let backend: DoorBackend
    let log: LogSink
    /// The port listened on (the one the system chose for port 0).
    let port: Int
    let lifecycle: ServerLifecycle<HTTPStatistics>
    /// Reads the journal for `state?at=`, `why` and `diff`, one question at a time, on a thread
    /// of its own: never on the event loop's, never on the bus's. At the lowest priority (nice
    /// 19), so on a machine with few cores the bus's own threads win the CPU over a dashboard
    /// scrubbing. When no question came for 10 s, the thread ends and lets go of the segments
    /// the history kept decoded for nearby questions, giving their memory back to the system.
    let historyWorker: WorkerThread

    private init(settings: HTTPSettings, limits: HTTPLimits, backend: DoorBackend, log: LogSink, listener: Int32, port: Int,
                 signals: (outbox: LoopSignal, stop: LoopSignal)) {
        self.settings = settings
        self.limits = limits
        self.backend = backend
        self.log = log
        self.port = port
        let history = backend.history
        historyWorker = WorkerThread(name: "http-history", idleExit: .seconds(10), niceness: 19) {
            guard let history else { return }
            history.letGoOfKeptSegments()
            FreedMemory.release()
        }
        var listening = settings
        listening.port = port
        var statistics = HTTPStatistics(listen: listening.authority)
        statistics.tiles = settings.tiles
        lifecycle = ServerLifecycle(listener: listener, signals: signals, statistics: statistics)
    }

    /// Listens on the settings' address and starts serving on the process's event loop.
    /// - Throws: ``ListenFailure`` when the address cannot be listened on (in use, say)
    ///   or the event loop cannot start.
    static func start(settings: HTTPSettings, limits: HTTPLimits, backend: DoorBackend, log: LogSink) throws(ListenFailure) -> HTTPServer {
        let loop = try sharedLoop()
        let (listener, port) = try TCPListener.listen(host: settings.host, port: settings.port, backlog: 128)
        let server = HTTPServer(settings: settings, limits: limits, backend: backend, log: log, listener: listener, port: port,
                                signals: signals(on: loop))
        loop.execute { thread in HTTPHost.start(server: server, on: thread) }
        return server
    }

    /// A server without a socket, served on the embedded `loop`: the test hands its host the
    /// connections (``ConnectionHost/adopt(_:)``) and runs the loop's turns.
    static func embedded(settings: HTTPSettings, limits: HTTPLimits, backend: DoorBackend, log: LogSink, on loop: EmbeddedLoop) -> HTTPHost {
        let server = HTTPServer(settings: settings, limits: limits, backend: backend, log: log, listener: -1, port: settings.port,
                                signals: signals(on: loop))
        return HTTPHost.start(server: server, on: loop)
    }

    /// The URL of the server's root (`http://127.0.0.1:8080/`).
    var url: String { "http://\(statistics.listen)/" }

    /// The loop side has closed every connection: the listener closes.
    func markExited() {
        lifecycle.markExited()
    }
}
