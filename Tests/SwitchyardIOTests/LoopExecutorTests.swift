import Glibc
import Synchronization
import SwitchyardTestSupport
import Testing
@testable import SwitchyardIO

/// The loop as a task executor: where a task that prefers it runs.
struct LoopExecutorTests {
    private actor Counter {
        var count = 0
        func increment() -> pthread_t {
            count += 1
            return pthread_self()
        }
    }

    /// A task that prefers the loop runs on the loop's thread, and so do the default actor it
    /// calls and its child tasks, across many suspensions.
    @Test func aTaskThatPrefersTheLoopRunsOnItsThread() async throws {
        let loop = try EventLoop(name: "test.executor")
        let loopThread = Mutex<pthread_t?>(nil)
        loop.execute { _ in loopThread.withLock { $0 = pthread_self() } }
        await waitUntil("the loop's thread is known") { loopThread.withLock { $0 != nil } }
        let expected = try #require(loopThread.withLock { $0 })
        let counter = Counter()
        let threads = await Task(executorPreference: loop) {
            var seen = [pthread_self()]
            for _ in 0..<100 { seen.append(await counter.increment()) }
            await withTaskGroup(of: pthread_t.self) { group in
                for _ in 0..<10 { group.addTask { pthread_self() } }
                for await thread in group { seen.append(thread) }
            }
            return seen
        }.value
        #expect(threads.count == 111)
        #expect(threads.allSatisfy { pthread_equal($0, expected) != 0 })
        #expect(await counter.count == 100)
        await loop.shutDown()
    }

    /// The loop keeps serving its other work between a busy task's jobs: a job queued by
    /// another thread runs while the task is still suspending and resuming.
    @Test func otherWorkRunsBetweenATasksJobs() async throws {
        let loop = try EventLoop(name: "test.executor.fair")
        let ran = Atomic<Bool>(false)
        let task = Task(executorPreference: loop) {
            var turns = 0
            while !ran.load(ordering: .sequentiallyConsistent) {
                await Task.yield()
                turns += 1
            }
            return turns
        }
        loop.execute { _ in ran.store(true, ordering: .sequentiallyConsistent) }
        // The task ends only once the job ran; a loop that ran the task's jobs alone would hang here.
        _ = await task.value
        let observed = ran.load(ordering: .sequentiallyConsistent)
        #expect(observed)
        await loop.shutDown()
    }
}
