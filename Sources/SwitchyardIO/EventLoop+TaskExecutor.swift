/// The loop as a task executor: a task started with `Task(executorPreference: loop)` runs its
/// jobs on the loop's thread, and so do the default actors it calls (the store, the router).
///
/// The bus's store drainer and the control server's watchers run here, next to the sockets
/// they serve: a loop turn hands its dispatches to the store, reduces them, answers and writes
/// the watchers' lines without waking a thread of the shared pool and waiting for it. What runs
/// here must not block, like any other loop work.
extension EventLoop: TaskExecutor {
    /// Queues `job` behind the loop's other work; it runs in the next turn.
    package func enqueue(_ job: consuming ExecutorJob) {
        enqueue(.task(UnownedJob(job)))
    }
}
