import CSwitchyardIO
import Glibc
import Synchronization

/// A handle on one I/O thread parked in `epoll_wait`: the only part of a loop other threads
/// and tasks may touch.
///
/// Everything else — registrations, timers, channels — lives on the thread as a
/// ``LoopThread`` and is reached through ``execute(_:)`` or a ``LoopSignal``. One loop serves
/// every socket, pipe and child of a process (``shared()``), so the thread count does not grow
/// with connections. Work handed to the loop must not block: it delays every other descriptor.
package final class EventLoop: Sendable {
    enum Job: Sendable {
        case run(@Sendable (LoopThread) -> Void)
        case signal(LoopSignal)
    }

    private struct Queue: Sendable {
        var jobs: [Job] = []
        var stopping = false
        /// The thread is in (or on its way into) `epoll_wait` with no job queued: the next job
        /// must wake it. While it is busy, jobs need no system call — it takes them before it
        /// waits again.
        var parked = false
    }

    /// The thread's name, as `top -H` shows it.
    package let name: String
    let epoll: Int32
    let wakeup: Wakeup
    private let queue = Mutex(Queue())
    private let tokens = Atomic<UInt64>(0)
    private let finished = Mutex<[CheckedContinuation<Void, Never>]?>([])

    /// Creates the epoll instance and its wake-up eventfd and starts the thread.
    /// - Throws: ``IOError`` when the system has no descriptors (or memory) left.
    package init(name: String) throws(IOError) {
        let epoll = csio_epoll_create()
        guard epoll >= 0 else { throw IOError.system("epoll_create1", errno: errno) }
        let wakeup: Wakeup
        do {
            wakeup = try Wakeup()
        } catch {
            close(epoll)
            throw error
        }
        self.name = name
        self.epoll = epoll
        self.wakeup = wakeup
        startDetachedThread { [self, name] in
            nameCurrentThread(name)
            // Pipes to children are written from here; a child that closed its end must cost
            // an EPIPE, not the process.
            csio_block_sigpipe()
            LoopThread(loop: self).run()
            let waiters = finished.withLock { waiters in
                defer { waiters = nil }
                return waiters ?? []
            }
            for waiter in waiters { waiter.resume() }
        }
    }

    deinit {
        close(epoll)
    }

    private static let sharedLoop = Mutex<EventLoop?>(nil)

    /// The process's loop, started on first use and never stopped.
    /// - Throws: ``IOError`` when it cannot be started (no descriptors left); a later call
    ///   tries again.
    package static func shared() throws(IOError) -> EventLoop {
        try sharedLoop.withLock { (loop: inout EventLoop?) throws(IOError) -> EventLoop in
            if let loop { return loop }
            let started = try EventLoop(name: "switchyard.io")
            loop = started
            return started
        }
    }

    /// A token for a registration or a signal, unique within the loop (0 is the wake-up's).
    func makeToken() -> UInt64 {
        tokens.add(1, ordering: .relaxed).newValue
    }

    /// A signal that does nothing until ``LoopThread/setSignalHandler(_:_:)`` gives it work;
    /// made on any thread, so a value handed to tasks can exist before the loop side is set up
    /// (firings queued before that call run after it, as jobs run in order).
    package func makeSignal() -> LoopSignal {
        LoopSignal(token: makeToken(), loop: self)
    }

    /// Runs `body` on the loop's thread, after the events it is handling now, in the order
    /// calls were made. Work queued after ``shutDown()`` is dropped.
    package func execute(_ body: @escaping @Sendable (LoopThread) -> Void) {
        enqueue(.run(body))
    }

    func enqueue(_ job: Job) {
        let wake = queue.withLock { queue -> Bool in
            guard !queue.stopping else { return false }
            queue.jobs.append(job)
            defer { queue.parked = false }
            return queue.parked
        }
        // Only a job for a parked loop pays for the system call: a busy loop (the store's
        // drainer queueing its own resumptions, a reply waking the outbox) takes it next turn.
        if wake { wakeup.signal() }
    }

    /// Marks the thread parked unless a job is queued; `false` tells it to look for events
    /// without waiting and run the jobs.
    func park() -> Bool {
        queue.withLock { queue in
            queue.parked = queue.jobs.isEmpty && !queue.stopping
            return queue.parked
        }
    }

    /// The thread is back from its wait: jobs queued from now on are taken before it parks.
    func unpark() {
        queue.withLock { $0.parked = false }
    }

    /// Takes the queued jobs; `nil` once the loop is told to stop.
    func takeJobs() -> [Job]? {
        queue.withLock { queue in
            guard !queue.stopping || !queue.jobs.isEmpty else { return nil }
            defer { queue.jobs = [] }
            return queue.jobs
        }
    }

    /// Stops the thread once the jobs queued before run, and waits for it to exit. Descriptors
    /// still registered are left open for their owners to close. Not for ``shared()``.
    package func shutDown() async {
        queue.withLock { $0.stopping = true }
        wakeup.signal()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let running = finished.withLock { waiters in
                guard waiters != nil else { return false }
                waiters?.append(continuation)
                return true
            }
            if !running { continuation.resume() }
        }
    }
}
