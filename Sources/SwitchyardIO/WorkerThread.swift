import CSwitchyardIO
import Glibc
import Synchronization

/// A thread the bus owns that runs the work handed to it one item at a time, in the order
/// handed over, and parks on an `eventfd` while it has none.
///
/// It is for blocking I/O — a journal append and its `fdatasync`, a write to a stalled
/// terminal — which must hold neither a thread of the Swift concurrency pool nor a libdispatch
/// worker: a serial `DispatchQueue` borrows a worker per burst, libdispatch keeps workers alive
/// while bursts keep coming and adds more under load, so the process's thread count follows
/// the load. A worker is always exactly one thread, named as `top -H` shows it.
///
/// The thread starts with the first work handed over. With `idleExit` it ends after that long
/// without work, and the next work starts a new one, so work that comes rarely costs no parked
/// thread; without it the thread stays until the worker is released. Work handed over before
/// the worker is released still runs; then the thread ends. `SIGPIPE` is blocked on it, so a
/// write to a closed pipe fails with `EPIPE` instead of ending the process.
package final class WorkerThread: Sendable {
    package typealias Work = @Sendable () -> Void

    /// The state the thread shares with its handle, under one lock.
    private struct State: Sendable {
        var work: [Work] = []
        var threadRunning = false
        var released = false
        /// The thread found no work and parks (or is about to) on the eventfd: the next
        /// submission signals it.
        var parked = false
    }

    /// What the thread holds: the state and the eventfd it parks on. It never holds the
    /// worker, so releasing the worker (and its owner) ends the thread.
    private final class Shared: Sendable {
        let state = Mutex(State())
        /// `nil` when no eventfd could be made (out of descriptors): the thread then looks for
        /// work every millisecond instead, as ``WorkerThread/pollingNotice`` says.
        let wakeup = try? Wakeup()

        /// Wakes the thread if it parks. Called after the lock is let go.
        func wake(_ parked: Bool) {
            if parked { wakeup?.signal() }
        }

        /// Parks until woken or `timeout` passes (`nil`: no limit).
        func park(timeout: Duration?) {
            guard let wakeup else {
                _ = poll(nil, 0, min(timeout?.timeoutMilliseconds ?? 1, 1))
                return
            }
            wakeup.wait(timeout: timeout)
        }
    }

    /// Workers made in this process that had no eventfd to park on.
    private static let pollingWorkers = Atomic<Int>(0)

    /// The thread's name (its first 15 bytes, as Linux keeps them).
    package let name: String
    /// The thread's nice value; `nil` leaves the process's.
    package let niceness: Int32?
    private let idleExit: Duration?
    private let whenIdle: Work?
    private let shared = Shared()

    /// A worker whose thread is called `name`; with `idleExit`, the thread ends after that
    /// long without work (and is started again by the next). With `niceness` (19: the lowest
    /// priority) the thread runs at that nice value, so on a busy machine the process's other
    /// threads win the CPU over its work. `whenIdle` runs on the thread each time it ends after
    /// `idleExit` without work (not when the worker is released): to let go of what the work
    /// kept for its next item.
    package init(name: String, idleExit: Duration? = nil, niceness: Int32? = nil, whenIdle: Work? = nil) {
        self.name = name
        self.niceness = niceness
        self.idleExit = idleExit
        self.whenIdle = whenIdle
        if shared.wakeup == nil {
            let count = Self.pollingWorkers.add(1, ordering: .relaxed).newValue
            pollingNotice = "thread \(name) has no eventfd to park on (the process is out of descriptors), so it looks for work every millisecond; \(count) such thread(s) made so far"
        } else {
            pollingNotice = nil
        }
    }

    /// Says why the thread polls when no eventfd could be made for it (the process was out of
    /// descriptors): it then looks for work every millisecond instead of parking, costing a
    /// wake-up a millisecond while idle. `nil` when it parks. SwitchyardIO has no log sink,
    /// so the owner logs this once.
    package let pollingNotice: String?

    deinit {
        let parked = shared.state.withLock { state in
            state.released = true
            defer { state.parked = false }
            return state.parked
        }
        shared.wake(parked)
    }

    /// Hands `work` to the thread, starting it if none runs; it runs after everything handed
    /// over before. Never blocks beyond a short lock (and one `write` when the thread parks).
    package func submit(_ work: @escaping Work) {
        let (start, parked) = shared.state.withLock { state in
            state.work.append(work)
            defer {
                state.threadRunning = true
                state.parked = false
            }
            return (!state.threadRunning, state.parked)
        }
        shared.wake(parked)
        if start { startThread() }
    }

    /// Runs `body` on the thread after everything handed over before, and returns its
    /// result; the calling task waits without holding a thread.
    package func run<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async -> Result {
        await withCheckedContinuation { continuation in
            submit { continuation.resume(returning: body()) }
        }
    }

    private func startThread() {
        let shared = self.shared
        let idleExit = self.idleExit
        let name = name
        let niceness = niceness
        let whenIdle = whenIdle
        startDetachedThread {
            nameCurrentThread(name)
            if let niceness { setCurrentThreadNiceness(niceness) }
            if Self.serve(shared, idleExit: idleExit) == .idle { whenIdle?() }
        }
    }

    private enum Step {
        case run
        case park(timeout: Duration?)
        case exit(Ending)
    }

    /// Why the thread's loop ended.
    private enum Ending {
        case released
        case idle
    }

    /// The thread's loop: takes everything handed over so far and runs it, until released
    /// (or idle for `idleExit`) with nothing left.
    private static func serve(_ shared: Shared, idleExit: Duration?) -> Ending {
        csio_block_sigpipe()
        var batch: [Work] = []
        var idleSince: ContinuousClock.Instant?
        while true {
            let now = ContinuousClock.now
            let step = shared.state.withLock { state -> Step in
                guard state.work.isEmpty else {
                    swap(&batch, &state.work)
                    state.parked = false
                    return .run
                }
                let idle = idleExit.map { $0 - (now - (idleSince ?? now)) }
                if state.released || idle.map({ $0 <= .zero }) == true {
                    state.threadRunning = false
                    return .exit(state.released ? .released : .idle)
                }
                state.parked = true
                return .park(timeout: idle)
            }
            switch step {
            case .run:
                idleSince = nil
                for work in batch { work() }
                batch.removeAll(keepingCapacity: batch.capacity <= 1024)
            case .park(let timeout):
                if idleSince == nil { idleSince = now }
                shared.park(timeout: timeout)
            case .exit(let ending):
                return ending
            }
        }
    }
}
