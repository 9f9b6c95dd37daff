import Dispatch
import Foundation

/// Runs `body` on a new thread and returns what it returns, suspending the caller meanwhile
/// instead of blocking a thread of the concurrency pool.
///
/// On Linux the pool *is* Dispatch's global queue, and Dispatch watches it: each second that
/// work waits in it, its monitor opens `/proc/<tid>/stat` for every worker thread (and ends the
/// process when it cannot). A test that blocks a pool thread for long — polling descriptors,
/// sleeping — leaves other work waiting on a loaded machine, so descriptors open and close
/// under it that it did not open, and its blocking holds up every other test in the process.
public func onThreadOfItsOwn<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: body()) }.start()
    }
}

/// Has Dispatch open now the descriptors it opens lazily, for a test that then counts the
/// process's free descriptors exactly (near the descriptor limit).
///
/// The first job a worker thread of the global queue runs starts Dispatch's pool monitor, a
/// timer, and the first timer on a clock makes Dispatch's manager thread create a timer
/// descriptor for it (`timerfd_create`): at whatever moment that happens, one descriptor fewer
/// is free. A timer run on the global queue does both, so they happen here, before the count.
public func openDispatchDescriptorsNow() async {
    await withCheckedContinuation { continuation in
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(5)) { continuation.resume() }
    }
}
