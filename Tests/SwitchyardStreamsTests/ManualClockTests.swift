import Dispatch
import SwitchyardTestSupport
import Synchronization
import SwitchyardTesting
import Testing

@Suite(.scaledTimeLimit(minutes: 1))
struct ManualClockTests {
    /// Runs jobs one at a time in the order they are enqueued, so tasks that prefer it resume
    /// in the order their continuations were resumed.
    final class SerialExecutor: TaskExecutor {
        private let queue = DispatchQueue(label: "ManualClockTests.serial")

        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            let executor = asUnownedTaskExecutor()
            queue.async { job.runSynchronously(on: executor) }
        }
    }

    /// The labels of woken sleepers, in the order they ran.
    final class WakeRecord: Sendable {
        let labels = Mutex<[Int]>([])
    }

    /// A sleeper wakes only once time reaches its deadline.
    @Test func sleeperWakesAtItsDeadline() async throws {
        let clock = ManualClock()
        let sleeper = Task { try await clock.sleep(until: clock.now.advanced(by: .seconds(1))) }
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .milliseconds(999))
        #expect(clock.sleeperCount == 1)
        #expect(clock.nextDeadline == ManualClock.Instant(offset: .seconds(1)))
        clock.advance(by: .milliseconds(1))
        try await sleeper.value
        #expect(clock.sleeperCount == 0)
        #expect(clock.now == ManualClock.Instant(offset: .seconds(1)))
    }

    /// Sleepers that fall due in one advance are resumed in deadline order.
    @Test func sleepersWakeInDeadlineOrder() async throws {
        let clock = ManualClock()
        let executor = SerialExecutor()
        let woken = WakeRecord()
        let sleepers = [3, 1, 2].map { label in
            Task(executorPreference: executor) {
                try await clock.sleep(until: .init(offset: .seconds(label)))
                woken.labels.withLock { $0.append(label) }
            }
        }
        await clock.waitForSleepers(count: 3)
        // A job queued behind the sleepers runs once every sleeper has fully suspended.
        await Task(executorPreference: executor) {}.value
        clock.advance(by: .seconds(5))
        for sleeper in sleepers { try await sleeper.value }
        #expect(woken.labels.withLock { $0 } == [1, 2, 3])
    }

    /// A deadline that has passed returns at once and registers no sleeper.
    @Test func passedDeadlineReturnsAtOnce() async throws {
        let clock = ManualClock()
        clock.advance(to: .init(offset: .seconds(2)))
        try await clock.sleep(until: .init(offset: .seconds(1)))
        try await clock.sleep(for: .zero)
        #expect(clock.sleeperCount == 0)
    }

    /// Cancelling a sleeper removes it and makes it throw `CancellationError`.
    @Test func cancelledSleeperThrowsAndLeaves() async {
        let clock = ManualClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(1)) }
        await clock.waitForSleepers(count: 1)
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleeperCount == 0)
    }

    /// A task cancelled before it sleeps throws without registering.
    @Test func cancelledBeforeSleepingThrows() async {
        let clock = ManualClock()
        let sleeper = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(for: .seconds(1))
        }
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleeperCount == 0)
    }

    /// Copies of a clock share one timeline.
    @Test func copiesShareTime() {
        let clock = ManualClock()
        let copy = clock
        copy.advance(by: .seconds(3))
        #expect(clock.now.offset == .seconds(3))
        #expect(clock.now.description == "+3.0 seconds")
    }

    /// Moving time backwards by a negative duration stops the program with a clear message.
    @Test func negativeAdvanceIsRejected() async {
        await #expect(processExitsWith: .failure) {
            ManualClock().advance(by: .seconds(-1))
        }
    }

    /// Advancing to an instant before now stops the program with a clear message.
    @Test func advanceToThePastIsRejected() async {
        await #expect(processExitsWith: .failure) {
            let clock = ManualClock()
            clock.advance(by: .seconds(2))
            clock.advance(to: .init(offset: .seconds(1)))
        }
    }

    /// Waiting for sleepers returns early when the waiting task is cancelled.
    @Test func waitForSleepersHonoursCancellation() async {
        let clock = ManualClock()
        let waiter = Task { await clock.waitForSleepers(count: 5) }
        waiter.cancel()
        await waiter.value
        #expect(clock.sleeperCount == 0)
    }

    /// `waitForSleeper(where:)` returns a matching delay already there or the next one to come,
    /// measured from now, and `pendingDelays` lists every sleeper's, shortest first.
    @Test func waitsForASleeperByItsDelay() async throws {
        let clock = ManualClock()
        let timeout = Task { try await clock.sleep(until: clock.now.advanced(by: .seconds(30))) }
        #expect(await clock.waitForSleeper { $0 == .seconds(30) } == .seconds(30))
        let waiter = Task { await clock.waitForSleeper { $0 < .seconds(30) } }
        let backoff = Task { try await clock.sleep(until: clock.now.advanced(by: .milliseconds(750))) }
        let found = try #require(await waiter.value)
        #expect(found == .milliseconds(750))
        #expect(clock.pendingDelays == [.milliseconds(750), .seconds(30)])
        clock.advance(by: found)
        try await backoff.value
        #expect(clock.pendingDelays == [.milliseconds(29_250)])
        timeout.cancel()
        await #expect(throws: CancellationError.self) { try await timeout.value }
        #expect(clock.pendingDelays.isEmpty)
    }

    /// A cancelled `waitForSleeper` returns nil instead of waiting for a sleeper that never comes.
    @Test func cancelledSleeperWaitReturnsNil() async {
        let clock = ManualClock()
        let waiter = Task { await clock.waitForSleeper { _ in true } }
        waiter.cancel()
        #expect(await waiter.value == nil)
    }
}
