import Foundation
import SwitchyardTestSupport
import Testing
@testable import SwitchyardIO

/// A worker's one thread: work in order, results handed back, and the thread ending when idle
/// or released (counted in /proc/self/task by its name).
struct WorkerThreadTests {
    /// Threads of this process named `name`.
    private func threads(named name: String) -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.filter { task in
            (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .newlines) == name
        }.count
    }

    /// Work from several tasks runs one item at a time, each task's in the order handed over,
    /// on one thread; `run` returns the body's result after the work before it.
    @Test func workRunsInOrderOnOneThread() async {
        let worker = WorkerThread(name: "test-order")
        let seen = Recorder<Int>()
        let threadIDs = Recorder<UInt64>()
        await withTaskGroup(of: Void.self) { group in
            for sender in 0..<4 {
                group.addTask {
                    for index in 0..<250 {
                        worker.submit {
                            seen.append(sender * 1000 + index)
                            threadIDs.append(UInt64(pthread_self()))
                        }
                    }
                }
            }
        }
        let count = await worker.run { seen.count }
        #expect(count == 1000)
        for sender in 0..<4 {
            #expect(seen.all.filter { $0 / 1000 == sender } == (0..<250).map { sender * 1000 + $0 })
        }
        #expect(Set(threadIDs.all).count == 1)
        #expect(threads(named: "test-order") == 1)
    }

    /// The nice values of this process's threads named `name`, as the kernel reports them
    /// (field 19 of /proc/self/task/TID/stat).
    private func niceness(ofThreadsNamed name: String) -> [Int] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.compactMap { task -> Int? in
            guard (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8))?.trimmingCharacters(in: .newlines) == name,
                  let stat = try? String(contentsOfFile: "/proc/self/task/\(task)/stat", encoding: .utf8),
                  let nameEnd = stat.lastIndex(of: ")")
            else { return nil }
            // After the name come the fields from the third (the state) on: the nice value is the 19th.
            let fields = stat[stat.index(after: nameEnd)...].split(separator: " ")
            return fields.count > 16 ? Int(fields[16]) : nil
        }
    }

    /// A worker made with a nice value runs its work at it, as the kernel reports for its
    /// thread; one made without runs at the nice value of the thread that started it.
    @Test func workRunsAtTheWorkersNiceness() async {
        let low = WorkerThread(name: "test-nice-19", niceness: 19)
        #expect(await low.run { currentThreadNiceness() } == 19)
        #expect(niceness(ofThreadsNamed: "test-nice-19") == [19])
        let plain = WorkerThread(name: "test-nice-none")
        let inherited = currentThreadNiceness()
        #expect(inherited < 19)
        #expect(await plain.run { currentThreadNiceness() } == inherited)
        #expect(niceness(ofThreadsNamed: "test-nice-none") == [Int(inherited)])
    }

    /// With `idleExit`, the thread ends once idle, and the next work starts another.
    @Test func idleThreadEndsAndRestarts() async {
        let worker = WorkerThread(name: "test-idle", idleExit: .milliseconds(20))
        #expect(threads(named: "test-idle") == 0)
        #expect(await worker.run { 1 } == 1)
        await waitUntil("the idle thread ended") { threads(named: "test-idle") == 0 }
        #expect(await worker.run { 2 } == 2)
    }

    /// `whenIdle` runs on the thread each time it ends for want of work, and not when the
    /// worker is released.
    @Test func whenIdleRunsEachTimeTheThreadEndsIdle() async {
        let idled = Recorder<String>()
        do {
            let worker = WorkerThread(name: "test-when-idle", idleExit: .milliseconds(20)) {
                idled.append((try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8))?.trimmingCharacters(in: .newlines) ?? "?")
            }
            #expect(await worker.run { 1 } == 1)
            await waitUntil("the idle thread ended") { idled.count == 1 }
            #expect(await worker.run { 2 } == 2)
            await waitUntil("the second idle thread ended") { idled.count == 2 }
            #expect(idled.all == ["test-when-idle", "test-when-idle"])
        }
        let released = WorkerThread(name: "test-no-idle") { idled.append("released") }
        #expect(await released.run { 3 } == 3)
        _ = consume released
        await waitUntil("the released worker's thread ended") { threads(named: "test-no-idle") == 0 }
        #expect(idled.count == 2)
    }

    /// Releasing the worker ends its thread after the work handed over.
    @Test func releasedWorkerEndsItsThread() async {
        let ran = Recorder<Int>()
        do {
            let worker = WorkerThread(name: "test-release")
            _ = await worker.run { 0 }
            for index in 0..<10 { worker.submit { ran.append(index) } }
        }
        await waitUntil("the released worker's thread ended") { threads(named: "test-release") == 0 }
        #expect(ran.all == Array(0..<10))
    }

    /// A worker made when the process is out of descriptors has no eventfd: it still runs its
    /// work (looking for it every millisecond) and says so for its owner to log, counted.
    @Test func workerWithoutEventfdPollsAndSaysSo() async {
        await #expect(processExitsWith: .success) {
            // Dispatch opens its timer descriptor once, lazily: not while the table is full.
            await openDispatchDescriptorsNow()
            // A little above the highest descriptor open: the child may inherit some from the
            // tests running beside it in the parent, and a limit below them (it was a fixed 64)
            // left nothing to free, so no eventfd could be made afterwards either.
            let inherited = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd"))?.compactMap { Int32($0) } ?? []
            var limit = rlimit()
            getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
            limit.rlim_cur = rlim_t(max(64, (inherited.max() ?? 0) + 16))
            precondition(setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0)
            var opened: [Int32] = []
            while case let descriptor = open("/dev/null", O_RDONLY), descriptor >= 0 { opened.append(descriptor) }
            let polling = WorkerThread(name: "test-poll")
            let second = WorkerThread(name: "test-poll-2")
            for descriptor in opened { close(descriptor) }
            precondition(polling.pollingNotice?.contains("thread test-poll has no eventfd") == true)
            precondition(second.pollingNotice?.hasSuffix("2 such thread(s) made so far") == true)
            let results = await (polling.run { 1 }, second.run { 2 })
            precondition(results == (1, 2))
            precondition(WorkerThread(name: "test-park").pollingNotice == nil)
        }
    }

    /// A task that prefers the worker runs its jobs on the worker's thread, between the work
    /// handed over, and so do the default actors it calls; a job that waits for work queued
    /// behind it is resumed there once that work ran.
    @Test func aTaskPreferringTheWorkerRunsOnItsThread() async {
        let worker = WorkerThread(name: "test-executor")
        let workerThread = await worker.run { UInt64(pthread_self()) }
        let counter = ThreadCounter()
        let seen = await Task(executorPreference: worker) {
            var threads = [UInt64(pthread_self())]
            threads.append(await counter.increment())
            // Suspends on work queued behind this job on the same thread: no deadlock.
            threads.append(await worker.run { UInt64(pthread_self()) })
            threads.append(UInt64(pthread_self()))
            return threads
        }.value
        #expect(seen == Array(repeating: workerThread, count: 4))
    }

    private actor ThreadCounter {
        var count = 0

        func increment() -> UInt64 {
            count += 1
            return UInt64(pthread_self())
        }
    }
}
