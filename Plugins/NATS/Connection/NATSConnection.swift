import Synchronization
import SwitchyardIO

/// One TCP connection to a NATS server, usable from async code without ever blocking a
/// cooperative thread.
///
/// The process's event loop connects, runs the handshake, answers the server's pings, pings a
/// quiet server, reads and writes (``NATSConnectionLoop``); a loop signal lets the bridge's
/// writes and ``close()`` reach it. Received messages queue up for ``next()``; reading pauses while
/// more than ``Limits/maximumQueuedBytes`` wait there, so memory stays bounded when the bus
/// is slower than the server. Writes are accepted between the handshake and ``close()``;
/// when more than ``Limits/outputHighWater`` bytes wait to be written, ``isCongested`` turns
/// on until the loop has written them, then ``NATSConnectionEvent/drained`` follows.
/// The last event is always ``NATSConnectionEvent/closed(_:)``.
final class NATSConnection: Sendable {
    /// Bounds on what a connection buffers.
    struct Limits: Sendable, Hashable {
        /// Received payload bytes queued for the bridge before reading pauses. Default: 8 MiB.
        var maximumQueuedBytes = 8 << 20
        /// Unwritten bytes above which the connection reports congestion. Default: 4 MiB.
        var outputHighWater = 4 << 20
        /// How long ``close()`` keeps writing what is buffered. Default: 0.5 seconds.
        var flushTimeout: Duration = .milliseconds(500)
    }

    struct State: Sendable {
        var output: [UInt8] = []
        var unwritten = 0
        var congested = false
        var isOpen = false
        var closeRequested = false
        var events: [NATSConnectionEvent] = []
        var queuedBytes = 0
        var readPaused = false
        var flushes = 0
        var consumer: CheckedContinuation<[NATSConnectionEvent]?, Never>?
        var endDelivered = false
        var info: NATSServerInfo?
    }

    /// The server this connection talks to.
    let endpoint: NATSEndpoint
    let limits: Limits
    private let state = Mutex(State())
    /// Wakes the loop side to write, flush, read again or close.
    let signal: LoopSignal

    private init(endpoint: NATSEndpoint, limits: Limits, signal: LoopSignal) {
        self.endpoint = endpoint
        self.limits = limits
        self.signal = signal
    }

    /// Starts connecting to `endpoint` on the process's event loop; the outcome arrives
    /// through ``next()``.
    /// - Throws: ``NATSConnectionError/io(_:)`` when the event loop cannot be started
    ///   (usually: out of file descriptors).
    static func open(
        _ endpoint: NATSEndpoint,
        options: NATSConnectOptions,
        timing: NATSClientMachine.Timing = .init(),
        limits: Limits = .init()
    ) throws(NATSConnectionError) -> NATSConnection {
        let loop: EventLoop
        do {
            loop = try EventLoop.shared()
        } catch {
            throw .io("cannot start the event loop: \(error)")
        }
        let connection = NATSConnection(endpoint: endpoint, limits: limits, signal: loop.makeSignal())
        loop.execute { thread in
            NATSConnectionLoop.start(connection, options: options, timing: timing, on: thread)
        }
        return connection
    }

    // MARK: The bridge side

    /// The next events, in order, waiting for at least one; `nil` once the closing event
    /// has been returned, or when the calling task is cancelled.
    func next() async -> [NATSConnectionEvent]? {
        if Task.isCancelled { return nil }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<[NATSConnectionEvent]?, Never>) in
                let immediate: [NATSConnectionEvent]?? = state.withLock { state in
                    if Task.isCancelled { return .some(nil) }
                    if let events = takeEvents(&state) { return .some(events) }
                    if state.endDelivered { return .some(nil) }
                    state.consumer = continuation
                    return nil
                }
                if let immediate { continuation.resume(returning: immediate) }
            }
        } onCancel: {
            state.withLock { state in
                defer { state.consumer = nil }
                return state.consumer
            }?.resume(returning: nil)
        }
    }

    /// Queues `bytes` (whole protocol operations) for writing; `false` before the handshake
    /// finished and after the connection closed or began closing.
    @discardableResult
    func write(_ bytes: [UInt8]) -> Bool {
        queue(bytes) != nil
    }

    /// Queues `bytes` as ``write(_:)`` does and returns, read under the same lock, whether
    /// the output is now congested (``isCongested``); `nil` when the bytes were not accepted.
    func queue(_ bytes: [UInt8]) -> Bool? {
        guard !bytes.isEmpty else { return isCongested }
        return state.withLock { state in
            guard state.isOpen, !state.closeRequested else { return nil }
            let wasIdle = state.unwritten == 0
            // Taken as they are when nothing waits: a run of publishes is not copied again.
            if state.output.isEmpty {
                state.output = bytes
            } else {
                state.output += bytes
            }
            state.unwritten += bytes.count
            if state.unwritten > limits.outputHighWater { state.congested = true }
            if wasIdle { wake(&state) }
            return state.congested
        }
    }

    /// Asks the server to confirm it processed everything written so far: a ping whose
    /// answer arrives as ``NATSConnectionEvent/flushed``. Does nothing unless open.
    func flush() {
        state.withLock { state in
            guard state.isOpen, !state.closeRequested else { return }
            state.flushes += 1
            wake(&state)
        }
    }

    /// Whether more than ``Limits/outputHighWater`` bytes wait to be written.
    var isCongested: Bool { state.withLock { $0.congested } }

    /// What the server said about itself most recently; `nil` before its `INFO`.
    var serverInfo: NATSServerInfo? { state.withLock { $0.info } }

    /// Stops accepting writes, writes what is buffered (for at most ``Limits/flushTimeout``)
    /// and closes; also abandons a connect or handshake in progress.
    func close() {
        state.withLock { state in
            guard !state.closeRequested else { return }
            state.closeRequested = true
            state.isOpen = false
            wake(&state)
        }
    }

    private func takeEvents(_ state: inout State) -> [NATSConnectionEvent]? {
        guard !state.events.isEmpty else { return nil }
        let events = state.events
        state.events = []
        state.queuedBytes = 0
        if state.readPaused {
            state.readPaused = false
            wake(&state)
        }
        if case .closed? = events.last { state.endDelivered = true }
        return events
    }

    /// Wakes the loop side; `state` is taken only to show the call is made under the lock,
    /// after the change the loop side must see.
    private func wake(_ state: inout State) {
        signal.fire()
    }

    // MARK: The loop side

    /// Whether ``close()`` was called; read while connecting, before ``plan()`` is.
    var isCloseRequested: Bool { state.withLock { $0.closeRequested } }

    /// What the loop side may do next: take the bytes to write and the flushes asked for after
    /// them, and whether to read and close.
    func plan() -> (output: [UInt8], flushes: Int, readAllowed: Bool, closeRequested: Bool) {
        state.withLock { state in
            let output = state.output
            let flushes = state.flushes
            state.output = []
            state.flushes = 0
            state.readPaused = state.queuedBytes > limits.maximumQueuedBytes
            return (output, flushes, !state.readPaused, state.closeRequested)
        }
    }

    /// Takes the bytes the bridge queued since the last ``plan()``.
    func takeOutput() -> [UInt8] {
        state.withLock { state in
            defer { state.output = [] }
            return state.output
        }
    }

    /// Records `count` bytes the loop side queued itself (handshake, pings and pongs).
    func recordQueued(_ count: Int) {
        state.withLock { $0.unwritten += count }
    }

    /// Records that `count` bytes were written; reports ``NATSConnectionEvent/drained`` once
    /// a congested output is empty.
    func recordWritten(_ count: Int) {
        let consumer: (CheckedContinuation<[NATSConnectionEvent]?, Never>, [NATSConnectionEvent])? = state.withLock { state in
            state.unwritten -= count
            guard state.congested, state.unwritten == 0 else { return nil }
            state.congested = false
            return enqueue([.drained], into: &state)
        }
        if let (continuation, events) = consumer { continuation.resume(returning: events) }
    }

    /// Hands events to the bridge; a `connected` event opens the connection for writes
    /// first, so the bridge can write as soon as it sees it.
    func deliver(_ events: [NATSConnectionEvent], info: NATSServerInfo?) {
        guard !events.isEmpty || info != nil else { return }
        let consumer: (CheckedContinuation<[NATSConnectionEvent]?, Never>, [NATSConnectionEvent])? = state.withLock { state in
            if let info { state.info = info }
            for event in events {
                if case .connected = event, !state.closeRequested { state.isOpen = true }
            }
            return enqueue(events, into: &state)
        }
        if let (continuation, events) = consumer { continuation.resume(returning: events) }
    }

    /// Queues the closing event after the socket was closed.
    func finish(_ error: NATSConnectionError) {
        let consumer: (CheckedContinuation<[NATSConnectionEvent]?, Never>, [NATSConnectionEvent])? = state.withLock { state in
            state.isOpen = false
            return enqueue([.closed(error)], into: &state)
        }
        if let (continuation, events) = consumer { continuation.resume(returning: events) }
    }

    private func enqueue(
        _ events: [NATSConnectionEvent],
        into state: inout State
    ) -> (CheckedContinuation<[NATSConnectionEvent]?, Never>, [NATSConnectionEvent])? {
        for event in events {
            state.events.append(event)
            if case .message(let message) = event { state.queuedBytes += message.payload.count + message.subject.utf8.count + 64 }
        }
        guard let consumer = state.consumer, let taken = takeEvents(&state) else { return nil }
        state.consumer = nil
        return (consumer, taken)
    }
}
