import SwitchyardBus
import SwitchyardTestSupport
import Synchronization
import Testing

/// Records what the work did, for checking each policy.
private final class WorkLog: Sendable {
    private let state = Mutex((started: [Int](), finished: [Int](), cancelled: [Int](), running: 0, maxRunning: 0))

    func start(_ value: Int) {
        state.withLock {
            $0.started.append(value)
            $0.running += 1
            $0.maxRunning = max($0.maxRunning, $0.running)
        }
    }

    func end(_ value: Int, cancelled: Bool) {
        state.withLock {
            $0.running -= 1
            if cancelled { $0.cancelled.append(value) } else { $0.finished.append(value) }
        }
    }

    var snapshot: (started: [Int], finished: [Int], cancelled: [Int], running: Int, maxRunning: Int) { state.withLock { $0 } }
}

struct WorkPolicyTests {
    /// `queue` runs every element's work one after another, in order.
    @Test func queueRunsInOrder() async {
        let log = WorkLog()
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        for value in 0..<5 { continuation.yield(value) }
        continuation.finish()
        await stream.forEach(policy: .queue) { value in
            log.start(value)
            await Task.yield()
            log.end(value, cancelled: false)
        }
        #expect(log.snapshot.finished == [0, 1, 2, 3, 4])
        #expect(log.snapshot.maxRunning == 1)
    }

    /// `every(maxConcurrent:)` runs every element's work, never more than the limit at once.
    @Test func everyRespectsConcurrencyLimit() async {
        let log = WorkLog()
        let gate = Gate()
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let work = Task {
            await stream.forEach(policy: .every(maxConcurrent: 3)) { value in
                log.start(value)
                await gate.wait()
                log.end(value, cancelled: false)
            }
        }
        for value in 0..<10 { continuation.yield(value) }
        await waitUntil("three pieces of work run") { log.snapshot.running >= 3 }
        #expect(log.snapshot.started.count == 3)
        gate.open()
        continuation.finish()
        await work.value
        #expect(log.snapshot.finished.sorted() == Array(0..<10))
        #expect(log.snapshot.maxRunning == 3)
    }

    /// `latest` cancels the work in flight when a new element arrives; only the last completes.
    @Test func latestCancelsInFlightWork() async {
        let log = WorkLog()
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let work = Task {
            await stream.forEach(policy: .latest) { value in
                log.start(value)
                let gate = Gate()
                await withTaskCancellationHandler { await gate.wait() } onCancel: { gate.open() }
                log.end(value, cancelled: Task.isCancelled)
            }
        }
        continuation.yield(1)
        await waitUntil("work 1 has started") { log.snapshot.started == [1] }
        continuation.yield(2)
        await waitUntil("work 2 has started") { log.snapshot.started == [1, 2] }
        #expect(log.snapshot.cancelled == [1])
        work.cancel()
        await work.value
        #expect(log.snapshot.cancelled == [1, 2])
        #expect(log.snapshot.running == 0)
    }

    /// `leading` ignores elements that arrive while work is in flight.
    @Test func leadingIgnoresWhileBusy() async {
        let log = WorkLog()
        let gate = Gate()
        let pulled = Mutex(0)
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let counted = stream.map { value in
            pulled.withLock { $0 += 1 }
            return value
        }
        let work = Task {
            await counted.forEach(policy: .leading) { value in
                log.start(value)
                if value == 1 { await gate.wait() }
                log.end(value, cancelled: false)
            }
        }
        continuation.yield(1)
        await waitUntil("work 1 has started") { log.snapshot.started == [1] }
        // 2 and 3 arrive while 1 is in flight; once the sentinel 99 has been pulled, the loop
        // has already judged 2 and 3.
        continuation.yield(2)
        continuation.yield(3)
        continuation.yield(99)
        await waitUntil("the sentinel has been pulled") { pulled.withLock({ $0 }) >= 4 }
        gate.open()
        await waitUntil("work 1 has finished") { log.snapshot.finished.contains(1) }
        continuation.yield(4)
        continuation.finish()
        await work.value
        let started = log.snapshot.started
        #expect(started.first == 1)
        #expect(!started.contains(2))
        #expect(!started.contains(3))
        #expect(started.contains(4))
    }
}
