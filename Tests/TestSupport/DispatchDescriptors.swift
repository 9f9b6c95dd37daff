import Dispatch

/// Has Dispatch open now the descriptors it opens lazily, for a test that then counts the
/// process's free descriptors exactly (near the descriptor limit).
///
/// The first job a worker thread of the global queue runs starts Dispatch's pool monitor, a
/// timer, and the first timer on a clock makes Dispatch's manager thread create a timer
/// descriptor for it (`timerfd_create`): at whatever moment that happens, one descriptor fewer
/// is free. A timer run on the global queue does both, so they happen here, before the count.
///
/// Such a test should also run its blocking scenario off the concurrency pool (SwitchyardIO's
/// `onThread`): on Linux the pool *is* Dispatch's global queue, and each second that work waits
/// in it, Dispatch's monitor opens `/proc/<tid>/stat` for every worker thread (and ends the
/// process when it cannot).
public func openDispatchDescriptorsNow() async {
    await withCheckedContinuation { continuation in
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(5)) { continuation.resume() }
    }
}
