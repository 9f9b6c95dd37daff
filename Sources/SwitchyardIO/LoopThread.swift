import CSwitchyardIO
import Glibc

/// The loop-side half of an ``EventLoop``: descriptor registrations, timers and signals,
/// touched only on the loop's thread (it is not `Sendable`, so the compiler keeps it there).
///
/// Interest changes are recorded and applied in one pass before the next `epoll_wait`, so a
/// handler that turns reading off and on while it works costs no system call.
package final class LoopThread: LoopScheduler {
    private struct Entry {
        var descriptor: Int32
        var handler: any DescriptorHandler
        var trigger: Trigger
        /// What epoll should watch: `nil` keeps the descriptor out of epoll altogether (the
        /// only way not to hear `EPOLLHUP`).
        var wanted: IOEvents?
        var applied: IOEvents?
    }

    /// The handle other threads use.
    package let loop: EventLoop
    private var entries: [UInt64: Entry] = [:]
    private var dirty: [UInt64] = []
    private var signals: [UInt64: () -> Void] = [:]
    private var timers = TimerQueue<() -> Void>()
    private var beforeWait: [() -> Void] = []
    private static let wakeToken: UInt64 = 0
    /// One read buffer for every channel on the loop: reads are handed out before the next.
    var readBuffer = [UInt8](repeating: 0, count: 64 << 10)

    init(loop: EventLoop) {
        self.loop = loop
    }

    package var now: ContinuousClock.Instant { .now }

    /// Adds `descriptor` to the loop with `interest`; `handler` hears its events until
    /// ``deregister(_:)``. The loop keeps `handler` alive while registered. The descriptor
    /// should be non-blocking.
    /// - Throws: ``IOError`` when epoll refuses it (a regular file, say).
    package func register(
        _ descriptor: Int32, interest: IOEvents, trigger: Trigger = .level, handler: any DescriptorHandler
    ) throws(IOError) -> Registration {
        let token = loop.makeToken()
        let bits = interest.rawValue | (trigger == .edge ? UInt32(truncatingIfNeeded: CSIO_ET) : 0)
        guard csio_epoll_ctl(loop.epoll, 1, descriptor, bits, token) == 0 else {
            throw IOError.system("epoll_ctl", errno: errno)
        }
        entries[token] = Entry(descriptor: descriptor, handler: handler, trigger: trigger, wanted: interest, applied: interest)
        return Registration(token: token, descriptor: descriptor)
    }

    /// Sets what the descriptor is watched for, from the next wait on; `nil` takes it out of
    /// epoll until interest is set again (a hung-up peer is otherwise reported on every wait).
    package func setInterest(_ registration: Registration, _ interest: IOEvents?) {
        guard var entry = entries[registration.token], entry.wanted != interest else { return }
        if entry.wanted == entry.applied { dirty.append(registration.token) }
        entry.wanted = interest
        entries[registration.token] = entry
    }

    /// Removes the descriptor from the loop (at once: it may be closed right after). Does not
    /// close it.
    package func deregister(_ registration: Registration) {
        guard let entry = entries.removeValue(forKey: registration.token) else { return }
        if entry.applied != nil { _ = csio_epoll_ctl(loop.epoll, 2, entry.descriptor, 0, 0) }
    }

    @discardableResult
    package func schedule(at deadline: ContinuousClock.Instant, _ body: @escaping () -> Void) -> TimerID {
        timers.schedule(at: deadline, body)
    }

    package func cancel(_ timer: TimerID) {
        timers.cancel(timer)
    }

    /// Runs `body` once, on this thread, after the events, jobs and timers at hand and before
    /// the loop waits for more: a host that gathers work from many handlers in one turn (the
    /// control server, every connection's dispatches) hands it on once.
    package func beforeWaiting(_ body: @escaping () -> Void) {
        beforeWait.append(body)
    }

    /// A signal that runs `body` on this loop when fired from anywhere (see ``LoopSignal``).
    package func makeSignal(_ body: @escaping () -> Void) -> LoopSignal {
        let signal = loop.makeSignal()
        signals[signal.token] = body
        return signal
    }

    /// Gives a signal made with ``EventLoop/makeSignal()`` its work.
    package func setSignalHandler(_ signal: LoopSignal, _ body: @escaping () -> Void) {
        signals[signal.token] = body
    }

    /// Makes `signal` inert: firing it later does nothing.
    package func removeSignal(_ signal: LoopSignal) {
        signals[signal.token] = nil
    }

    func run() {
        guard csio_epoll_ctl(loop.epoll, 1, loop.wakeup.descriptor, UInt32(CSIO_IN), Self.wakeToken) == 0 else { return }
        var events = [csio_event](repeating: csio_event(), count: 256)
        while true {
            guard runJobs() else { return }
            runTimers()
            runBeforeWaiting()
            applyInterest()
            // A job queued during this turn (by the turn itself, say) is run after a look at
            // the descriptors that does not wait.
            let timeout = loop.park() ? timers.nextDeadline().map { ($0 - now).timeoutMilliseconds } ?? -1 : 0
            let count = events.withUnsafeMutableBufferPointer { csio_epoll_wait(loop.epoll, $0.baseAddress, 256, timeout) }
            loop.unpark()
            if count < 0 {
                if errno == EINTR { continue }
                // Only a bad epoll descriptor fails here, which nothing can repair.
                return
            }
            for index in 0..<Int(count) {
                let token = events[index].token
                if token == Self.wakeToken {
                    loop.wakeup.clear()
                } else if let entry = entries[token] {
                    entry.handler.ready(IOEvents(rawValue: events[index].events))
                }
            }
        }
    }

    /// Runs queued jobs and fired signals; `false` when the loop is told to stop.
    private func runJobs() -> Bool {
        guard let jobs = loop.takeJobs() else { return false }
        for job in jobs {
            switch job {
            case .run(let body):
                body(self)
            case .signal(let signal):
                signal.rearm()
                signals[signal.token]?()
            }
        }
        return true
    }

    private func runTimers() {
        // Only timers due when the pass began run now; one that schedules another due at
        // once cannot starve the descriptors.
        let current = now
        while let (_, body) = timers.popDue(at: current) { body() }
    }

    private func runBeforeWaiting() {
        // A body may ask for another turn's end; it runs before the wait too.
        while !beforeWait.isEmpty {
            let bodies = beforeWait
            beforeWait = []
            for body in bodies { body() }
        }
    }

    private func applyInterest() {
        for token in dirty {
            guard var entry = entries[token], entry.wanted != entry.applied else { continue }
            let bits = (entry.wanted?.rawValue ?? 0) | (entry.trigger == .edge ? UInt32(truncatingIfNeeded: CSIO_ET) : 0)
            switch (entry.applied, entry.wanted) {
            case (nil, .some): _ = csio_epoll_ctl(loop.epoll, 1, entry.descriptor, bits, token)
            case (.some, nil): _ = csio_epoll_ctl(loop.epoll, 2, entry.descriptor, 0, 0)
            default: _ = csio_epoll_ctl(loop.epoll, 3, entry.descriptor, bits, token)
            }
            entry.applied = entry.wanted
            entries[token] = entry
        }
        dirty.removeAll(keepingCapacity: true)
    }
}
