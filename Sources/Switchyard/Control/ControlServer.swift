import Foundation
import Glibc
import Synchronization
import SwitchyardStreams

/// The control socket of a bus: newline-delimited JSON requests over a Unix socket.
///
/// All socket I/O happens on one thread of its own, parked in `poll`, so no cooperative
/// thread ever blocks on a client. Dispatches and watchers run as tasks that hand their
/// output back through each connection's bounded outbox and wake the thread through a socket
/// pair; wake-ups are coalesced, so a busy stream costs at most one per loop.
final class ControlServer: Sendable {
    private struct Lifecycle: Sendable {
        var stopDeadline: ContinuousClock.Instant?
    }

    let path: String
    let limits: ControlLimits
    let backend: ControlBackend
    let log: LogSink
    let listener: Int32
    let wakeRead: Int32
    private let wakeWrite: Int32
    private let wakePending = Atomic<Bool>(false)
    private let lifecycle = Mutex(Lifecycle())
    private let counters: Mutex<ControlStatistics>
    private let exited = CurrentValue(false)

    private init(path: String, limits: ControlLimits, backend: ControlBackend, log: LogSink,
                 listener: Int32, wake: (read: Int32, write: Int32)) {
        self.path = path
        self.limits = limits
        self.backend = backend
        self.log = log
        self.listener = listener
        self.wakeRead = wake.read
        self.wakeWrite = wake.write
        self.counters = Mutex(ControlStatistics(socketPath: path))
    }

    /// Listens on `path` and starts the I/O thread.
    /// - Throws: ``UnixSocket/Failure`` when a live bus listens on `path` or the socket cannot
    ///   be created.
    static func start(path: String, limits: ControlLimits, backend: ControlBackend, log: LogSink) throws(UnixSocket.Failure) -> ControlServer {
        let listener = try UnixSocket.listen(at: path, backlog: 128)
        let wake: (read: Int32, write: Int32)
        do {
            wake = try UnixSocket.wakePair()
        } catch {
            close(listener)
            throw error
        }
        let server = ControlServer(path: path, limits: limits, backend: backend, log: log, listener: listener, wake: wake)
        let thread = Thread { ControlIOLoop(server: server).run() }
        thread.name = "switchyard.control"
        thread.start()
        return server
    }

    /// Wakes the I/O thread to look at outboxes; cheap when a wake-up is already pending.
    func wake() {
        guard !wakePending.exchange(true, ordering: .acquiringAndReleasing) else { return }
        var byte: UInt8 = 1
        _ = Glibc.send(wakeWrite, &byte, 1, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
    }

    /// Called by the I/O thread before it looks at outboxes. The bytes are drained before the
    /// flag is cleared: the other order could swallow the byte of a wake-up that came in
    /// between and leave the flag set with nothing to read, losing every later wake-up.
    func clearWake() {
        var sink = [UInt8](repeating: 0, count: 64)
        while recv(wakeRead, &sink, sink.count, Int32(MSG_DONTWAIT)) > 0 {}
        wakePending.store(false, ordering: .sequentiallyConsistent)
    }

    /// Stops taking connections and requests, lets in-flight replies and watcher streams
    /// flush for up to `grace`, closes every connection and removes the socket file.
    func shutDown(grace: Duration) async {
        lifecycle.withLock { $0.stopDeadline = ContinuousClock.now.advanced(by: grace) }
        wake()
        for await done in exited.subscribe() where done { return }
    }

    /// When the I/O thread must close everything; `nil` while the server runs.
    var stopDeadline: ContinuousClock.Instant? {
        lifecycle.withLock { $0.stopDeadline }
    }

    /// The I/O thread has closed every connection.
    func markExited() {
        close(listener)
        unlink(path)
        exited.send(true)
        exited.finish()
    }

    // The wake-up pair lives as long as the server: a late completion may still call `wake()`,
    // and a closed descriptor's number could by then belong to another file.
    deinit {
        close(wakeRead)
        close(wakeWrite)
    }

    /// The server's counters.
    var statistics: ControlStatistics {
        counters.withLock { $0 }
    }

    func count(_ update: (inout ControlStatistics) -> Void) {
        counters.withLock { update(&$0) }
    }
}
