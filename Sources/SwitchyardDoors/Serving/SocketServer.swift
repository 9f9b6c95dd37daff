import Glibc
import Synchronization
import SwitchyardIO
import SwitchyardStreams

/// A server whose sockets a host serves on the process's event loop (the control socket, the
/// HTTP server): the signals, stop deadline, counters and exit that its host on the loop and
/// its tasks share, written once in ``ServerLifecycle`` and reached through the server.
protocol SocketServer: Sendable {
    /// What the server counts.
    associatedtype Statistics: Sendable
    /// The shared part.
    var lifecycle: ServerLifecycle<Statistics> { get }
    /// Where the host logs what a client cannot be told.
    var log: LogSink { get }
    /// The loop side has closed every connection: the listener closes (and whatever else
    /// the server leaves behind goes).
    func markExited()
}

extension SocketServer {
    /// The process's event loop, which every server's host runs on.
    /// - Throws: ``ListenFailure`` when the loop cannot start.
    static func sharedLoop() throws(ListenFailure) -> EventLoop {
        do {
            return try EventLoop.shared()
        } catch {
            throw ListenFailure(description: "cannot start the event loop: \(error)")
        }
    }

    /// The signals a host on `loop` hears: the outbox's, the stop's.
    static func signals(on loop: EventLoop) -> (outbox: LoopSignal, stop: LoopSignal) {
        (loop.makeSignal(), loop.makeSignal())
    }

    /// The signals a host on the embedded `loop` hears (its turns run them).
    static func signals(on loop: EmbeddedLoop) -> (outbox: LoopSignal, stop: LoopSignal) {
        (loop.makeSignal(), loop.makeSignal())
    }

    /// The listening socket; -1 for a server whose connections a test hands its host.
    var listener: Int32 { lifecycle.listener }
    /// Tells the loop side to look at the outboxes.
    var outboxSignal: LoopSignal { lifecycle.outboxSignal }
    /// Tells the loop side that ``stopDeadline`` was set.
    var stopSignal: LoopSignal { lifecycle.stopSignal }

    /// Wakes the loop side to look at outboxes; cheap when a wake-up is already pending.
    func wake() {
        lifecycle.outboxSignal.fire()
    }

    /// Sets the stop deadline `grace` from now, tells the loop side, and returns once it has
    /// closed every connection (``ServerLifecycle/markExited(_:)``).
    func shutDown(grace: Duration) async {
        await lifecycle.shutDown(grace: grace)
    }

    /// When the loop side must close everything; `nil` while the server runs.
    var stopDeadline: ContinuousClock.Instant? { lifecycle.stopDeadline }

    /// The server's counters.
    var statistics: Statistics { lifecycle.statistics }

    /// Updates the counters under their lock.
    func count(_ update: (inout Statistics) -> Void) {
        lifecycle.count(update)
    }
}

/// The state a ``SocketServer``'s loop side and its tasks share.
final class ServerLifecycle<Statistics: Sendable>: Sendable {
    let listener: Int32
    let outboxSignal: LoopSignal
    let stopSignal: LoopSignal
    private let stopAt = Mutex<ContinuousClock.Instant?>(nil)
    private let counters: Mutex<Statistics>
    private let exited = CurrentValue(false)

    /// The shared state of a server listening on `listener` (-1: none), whose host hears
    /// `signals` (made by the loop it runs on).
    init(listener: Int32, signals: (outbox: LoopSignal, stop: LoopSignal), statistics: Statistics) {
        self.listener = listener
        outboxSignal = signals.outbox
        stopSignal = signals.stop
        counters = Mutex(statistics)
    }

    fileprivate func shutDown(grace: Duration) async {
        stopAt.withLock { $0 = ContinuousClock.now.advanced(by: grace) }
        stopSignal.fire()
        for await done in exited.subscribe() where done { return }
    }

    fileprivate var stopDeadline: ContinuousClock.Instant? { stopAt.withLock { $0 } }

    /// The loop side has closed every connection: the listener closes, `cleanUp` runs (the
    /// control socket's file goes), then ``SocketServer/shutDown(grace:)`` returns.
    func markExited(_ cleanUp: () -> Void = {}) {
        if listener >= 0 { close(listener) }
        cleanUp()
        exited.send(true)
        exited.finish()
    }

    fileprivate var statistics: Statistics { counters.withLock { $0 } }

    fileprivate func count(_ update: (inout Statistics) -> Void) {
        counters.withLock { update(&$0) }
    }
}
