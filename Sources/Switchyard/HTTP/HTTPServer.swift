import Glibc
import Synchronization
import SwitchyardIO
import SwitchyardStreams

/// The bus's HTTP/1.1 server: dashboard, metrics, health and the JSON API.
///
/// Built like the control server: every socket is served on the process's shared event loop
/// (``EventLoop/shared()``) by an ``HTTPHost``; dispatches and event streams run as tasks
/// that hand their bytes back through each connection's bounded outbox and fire the server's
/// ``LoopSignal``.
final class HTTPServer: Sendable {
    let settings: HTTPSettings
    let limits: HTTPLimits
    let backend: HTTPBackend
    let log: LogSink
    let listener: Int32
    /// The port listened on (the one the system chose for port 0).
    let port: Int
    let loop: EventLoop
    let outboxSignal: LoopSignal
    let stopSignal: LoopSignal
    private let stopAt = Mutex<ContinuousClock.Instant?>(nil)
    private let counters: Mutex<HTTPStatistics>
    private let exited = CurrentValue(false)

    private init(settings: HTTPSettings, limits: HTTPLimits, backend: HTTPBackend, log: LogSink, listener: Int32, port: Int, loop: EventLoop) {
        self.settings = settings
        self.limits = limits
        self.backend = backend
        self.log = log
        self.listener = listener
        self.port = port
        self.loop = loop
        outboxSignal = loop.makeSignal()
        stopSignal = loop.makeSignal()
        var listening = settings
        listening.port = port
        var statistics = HTTPStatistics(listen: listening.authority)
        statistics.tiles = settings.tiles
        counters = Mutex(statistics)
    }

    /// Listens on the settings' address and starts serving on the process's event loop.
    /// - Throws: ``UnixSocket/Failure`` when the address cannot be listened on (in use, say)
    ///   or the event loop cannot start.
    static func start(settings: HTTPSettings, limits: HTTPLimits, backend: HTTPBackend, log: LogSink) throws(UnixSocket.Failure) -> HTTPServer {
        let loop: EventLoop
        do {
            loop = try EventLoop.shared()
        } catch {
            throw UnixSocket.Failure(description: "cannot start the event loop: \(error)")
        }
        let (listener, port) = try TCPListener.listen(host: settings.host, port: settings.port, backlog: 128)
        let server = HTTPServer(settings: settings, limits: limits, backend: backend, log: log, listener: listener, port: port, loop: loop)
        loop.execute { thread in HTTPHost.start(server: server, on: thread) }
        return server
    }

    /// The URL of the server's root (`http://127.0.0.1:8080/`).
    var url: String { "http://\(statistics.listen)/" }

    /// Wakes the loop side to look at outboxes.
    func wake() {
        outboxSignal.fire()
    }

    /// Stops taking connections and requests, lets responses in flight flush for up to
    /// `grace`, ends every event stream and closes every connection.
    func shutDown(grace: Duration) async {
        stopAt.withLock { $0 = ContinuousClock.now.advanced(by: grace) }
        stopSignal.fire()
        for await done in exited.subscribe() where done { return }
    }

    /// When the loop side must close everything; `nil` while the server runs.
    var stopDeadline: ContinuousClock.Instant? { stopAt.withLock { $0 } }

    /// The loop side has closed every connection.
    func markExited() {
        close(listener)
        exited.send(true)
        exited.finish()
    }

    /// The server's counters.
    var statistics: HTTPStatistics { counters.withLock { $0 } }

    func count(_ update: (inout HTTPStatistics) -> Void) {
        counters.withLock { update(&$0) }
    }
}
