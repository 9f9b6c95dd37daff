import Synchronization
import SwitchyardTestSupport
import Testing
@testable import SwitchyardIO

/// ``LoopThread/beforeWaiting(_:)``: work gathered in a turn runs once, after the turn's jobs.
struct BeforeWaitingTests {
    /// Bodies asked for by two jobs of one turn run after both jobs, once each, in order; one
    /// a body asks for runs before the loop waits, too.
    @Test func runsOnceAfterTheTurnsJobs() async throws {
        let loop = try EventLoop(name: "test.before-waiting")
        let seen = Recorder<String>()
        let start = Mutex<LoopSignal?>(nil)
        loop.execute { thread in
            let signal = thread.makeSignal {
                seen.append("signal")
                thread.beforeWaiting {
                    seen.append("first")
                    thread.beforeWaiting { seen.append("asked by first") }
                }
            }
            start.withLock { $0 = signal }
            thread.beforeWaiting { seen.append("setup") }
        }
        await waitUntil("the setup's body ran") { seen.all == ["setup"] }
        let signal = try #require(start.withLock { $0 })
        loop.execute { _ in seen.append("job") }
        signal.fire()
        await waitUntil("the bodies ran") { seen.count == 5 }
        #expect(seen.all == ["setup", "job", "signal", "first", "asked by first"])
        await loop.shutDown()
    }
}
