/// The worker as a task executor: a task started with `Task(executorPreference: worker)` runs
/// its jobs on the worker's thread, in turn with the work handed over, and so do the default
/// actors it calls.
///
/// The bus's store reduces on its journal writer's thread this way (a dispatch then crosses
/// two threads, not three). A job must not block on work queued behind it on the same worker
/// (it would wait for itself); awaiting it is fine: the job ends, the work runs, the task
/// resumes.
extension WorkerThread: TaskExecutor {
    /// Queues `job` behind the work handed over before.
    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        submit { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
