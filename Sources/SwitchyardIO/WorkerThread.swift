import CSwitchyardIO
import Foundation

/// A thread the bus owns that runs the work handed to it one item at a time, in the order
/// handed over, and parks on a condition while it has none.
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

    /// The state the thread shares with its handle; every field is read and written under
    /// `condition`'s lock. The thread holds this, never the worker, so releasing the worker
    /// (and its owner) ends the thread.
    private final class Shared: @unchecked Sendable {
        let condition = NSCondition()
        var work: [Work] = []
        var threadRunning = false
        var released = false
    }

    /// The thread's name (its first 15 bytes, as Linux keeps them).
    package let name: String
    private let idleExit: Duration?
    private let shared = Shared()

    /// A worker whose thread is called `name`; with `idleExit`, the thread ends after that
    /// long without work (and is started again by the next).
    package init(name: String, idleExit: Duration? = nil) {
        self.name = name
        self.idleExit = idleExit
    }

    deinit {
        shared.condition.lock()
        shared.released = true
        shared.condition.signal()
        shared.condition.unlock()
    }

    /// Hands `work` to the thread, starting it if none runs; it runs after everything handed
    /// over before. Never blocks beyond a short lock.
    package func submit(_ work: @escaping Work) {
        shared.condition.lock()
        shared.work.append(work)
        let start = !shared.threadRunning
        shared.threadRunning = true
        shared.condition.signal()
        shared.condition.unlock()
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
        let idleExit = self.idleExit?.secondsValue
        let name = name
        let thread = Thread {
            nameCurrentThread(name)
            Self.serve(shared, idleExit: idleExit)
        }
        thread.start()
    }

    /// The thread's loop: takes everything handed over so far and runs it, until released
    /// (or idle for `idleExit` seconds) with nothing left.
    private static func serve(_ shared: Shared, idleExit: Double?) {
        csio_block_sigpipe()
        var batch: [Work] = []
        while true {
            shared.condition.lock()
            while shared.work.isEmpty {
                if shared.released {
                    shared.threadRunning = false
                    shared.condition.unlock()
                    return
                }
                if let idleExit {
                    let woken = shared.condition.wait(until: Date(timeIntervalSinceNow: idleExit))
                    if !woken, shared.work.isEmpty {
                        shared.threadRunning = false
                        shared.condition.unlock()
                        return
                    }
                } else {
                    shared.condition.wait()
                }
            }
            swap(&batch, &shared.work)
            shared.condition.unlock()
            for work in batch { work() }
            batch.removeAll(keepingCapacity: batch.capacity <= 1024)
        }
    }
}
