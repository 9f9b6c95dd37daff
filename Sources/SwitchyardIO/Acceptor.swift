import Glibc

/// Accepts connections on a listening socket registered on the loop.
///
/// Out of descriptors (`EMFILE`/`ENFILE`) a listener stays readable while the client waits in
/// the backlog, so a naive loop would spin and the client would hang. The acceptor holds one
/// spare descriptor (`/dev/null`) for that case: it gives it up, accepts the waiting client so
/// the owner can tell it why and close it, and takes the spare back once the owner has. After
/// any failure it stops accepting for ``pause`` so the loop cannot spin.
///
/// Nor do connections take the last descriptors: a connection that would leave fewer than
/// ``headroom`` free is refused like one accepted with the spare. The rest of the process
/// needs them: libdispatch's worker monitor opens `/proc/…/stat` files and ends the process
/// when it cannot, which it does whenever queued work waits at a tick (under load).
package final class Acceptor: DescriptorHandler {
    /// What the owner hears.
    package enum Event {
        /// A connection, non-blocking and close-on-exec, now the owner's.
        case connection(Int32)
        /// Out of descriptors (`errno`); `refused` is a waiting client accepted with the spare
        /// descriptor, which the owner should tell why and must close before it returns (the
        /// acceptor takes the spare back right after).
        case outOfDescriptors(errno: Int32, refused: Int32?)
        /// `accept` failed with this `errno`.
        case failed(errno: Int32)
    }

    /// How long accepting pauses after a failure.
    package let pause: Duration
    private let listener: Int32
    private let thread: LoopThread
    private let onEvent: (Event) -> Void
    private var registration: Registration?
    private var spare: Int32
    private var resumeTimer: TimerID?

    /// Registers `listener` (non-blocking) on `thread`; `onEvent` hears every connection and
    /// failure. The listener stays the caller's to close, after ``stop()``.
    /// - Throws: ``IOError`` when epoll refuses the listener.
    package init(
        listener: Int32, on thread: LoopThread, pause: Duration = .milliseconds(100), onEvent: @escaping (Event) -> Void
    ) throws(IOError) {
        self.listener = listener
        self.thread = thread
        self.pause = pause
        self.onEvent = onEvent
        spare = Self.openSpare()
        registration = try thread.register(listener, interest: .readable, handler: self)
    }

    deinit {
        if spare >= 0 { Glibc.close(spare) }
    }

    /// Stops accepting for good; the listener is left open.
    package func stop() {
        if let registration { thread.deregister(registration) }
        registration = nil
        if let resumeTimer { thread.cancel(resumeTimer) }
        resumeTimer = nil
    }

    package func ready(_ events: IOEvents) {
        while registration != nil, resumeTimer == nil {
            switch Self.accept(from: listener) {
            case .none:
                return
            case .failed(let code) where code == EMFILE || code == ENFILE:
                onEvent(.outOfDescriptors(errno: code, refused: acceptWithSpare()))
                // The owner has closed the refused client by now, so its slot is free to be the
                // spare again; taken any earlier, the refused client still held it.
                if spare < 0 { spare = Self.openSpare() }
                pauseAccepting()
            case .failed(let code):
                onEvent(.failed(errno: code))
                pauseAccepting()
            case .connection(let descriptor) where Self.leavesHeadroom(besides: listener):
                onEvent(.connection(descriptor))
            case .connection(let descriptor):
                onEvent(.outOfDescriptors(errno: EMFILE, refused: descriptor))
                pauseAccepting()
            }
        }
    }

    private func pauseAccepting() {
        guard let registration else { return }
        thread.setInterest(registration, nil)
        resumeTimer = thread.schedule(after: pause) { [weak self] in
            guard let self, let registration = self.registration else { return }
            self.resumeTimer = nil
            self.thread.setInterest(registration, .readable)
        }
    }

    private func acceptWithSpare() -> Int32? {
        guard spare >= 0 else {
            spare = Self.openSpare()
            return nil
        }
        Glibc.close(spare)
        spare = -1
        if case .connection(let descriptor) = Self.accept(from: listener) { return descriptor }
        spare = Self.openSpare()
        return nil
    }

    /// How many descriptors the process keeps free for everything but connections.
    package static let headroom = 2

    /// Whether ``headroom`` more descriptors can be opened now: duplicates of `listener`,
    /// closed again at once.
    private static func leavesHeadroom(besides listener: Int32) -> Bool {
        var probes: [Int32] = []
        probes.reserveCapacity(headroom)
        defer { for probe in probes { Glibc.close(probe) } }
        while probes.count < headroom {
            let probe = fcntl(listener, F_DUPFD_CLOEXEC, 0)
            guard probe >= 0 else { return false }
            probes.append(probe)
        }
        return true
    }

    private static func openSpare() -> Int32 {
        open("/dev/null", O_RDONLY | O_CLOEXEC)
    }

    /// What one `accept` gave.
    package enum Accepted: Sendable, Hashable {
        /// A connection, non-blocking and close-on-exec.
        case connection(Int32)
        /// No connection is pending.
        case none
        /// The call failed with this `errno`.
        case failed(Int32)
    }

    /// Accepts one pending connection from a non-blocking listener.
    package static func accept(from listener: Int32) -> Accepted {
        while true {
            let descriptor = Glibc.accept(listener, nil, nil)
            if descriptor >= 0 {
                Sockets.prepare(descriptor)
                return .connection(descriptor)
            }
            if errno == EINTR || errno == ECONNABORTED { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK { return .none }
            return .failed(errno)
        }
    }
}
