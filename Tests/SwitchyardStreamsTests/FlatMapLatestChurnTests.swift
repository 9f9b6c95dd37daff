@testable import SwitchyardStreams
import SwitchyardTestSupport
import SwitchyardTesting
import Testing

/// Issue 12 point 6: `flatMapLatest` under churn keeps flat bookkeeping, keeps replaced inner
/// sequences' values within the buffer, and leaves no replaced inner suspended.
@Suite(.timeLimit(.minutes(1)))
struct FlatMapLatestChurnTests {
    /// (a) 3,000 switches between inner sequences still running leave the driver's task and
    /// waiter bookkeeping at the few live entries (it grew by one entry per switch).
    @Test func bookkeepingStaysFlatOverManySwitches() async {
        let outer = Broadcast<Int>()
        var iterator = outer.subscribe(bufferSize: 8, overflow: .suspendProducer)
            .flatMapLatest { CurrentValue($0) }
            .makeAsyncIterator()
        let driver = iterator.handle.driver
        var largest = 0
        for generation in 0..<3_000 {
            await outer.deliver(generation)
            #expect(await iterator.next() == generation)
            largest = max(largest, driver.state.withLock { $0.bookkeepingCount })
        }
        #expect(largest <= 8, "bookkeeping reached \(largest) entries")
    }

    /// (b) With a consumer that does not read while the outer switches 300 times, at most the
    /// buffer's 64 values of replaced inner sequences come out before the current one's.
    @Test func replacedValuesStayWithinTheBuffer() async {
        let generations = 300
        var iterator = ImmediateSequence(Array(0..<generations))
            .flatMapLatest { ImmediateSequence(Array(repeating: $0, count: 500)) }
            .makeAsyncIterator()
        let driver = iterator.handle.driver
        _ = await iterator.next()
        await waitUntil("the outer sequence has switched to its last inner sequence") {
            driver.state.withLock { $0.machine.generation } == UInt64(generations)
        }
        var beforeCurrent = 0
        while let value = await iterator.next(), value != generations - 1 {
            beforeCurrent += 1
        }
        #expect(beforeCurrent <= 64, "\(beforeCurrent) values of replaced inner sequences came first")
    }

    /// (c) 100 switches while every inner sequence waits for room leave only the current inner
    /// sequence's iterator alive: replaced ones are not stuck in the room wait.
    @Test func replacedInnersWaitingForRoomEnd() async {
        let outer = Broadcast<Int>()
        let inners = (0..<100).map { _ in TestSource<Int, Never>() }
        for inner in inners {
            for value in 0..<100 { inner.send(value) }
        }
        var iterator = outer.subscribe(bufferSize: 128, overflow: .suspendProducer)
            .flatMapLatest { inners[$0] }
            .makeAsyncIterator()
        let driver = iterator.handle.driver
        outer.send(0)
        #expect(await iterator.next() == 0)
        for generation in 1..<100 {
            await waitUntil("inner \(generation - 1) waits for room") {
                driver.state.withLock { $0.roomWaiters.count } == 1
            }
            outer.send(generation)
        }
        for index in 0..<99 {
            await inners[index].waitForTermination()
        }
        #expect(inners[99].activeIteratorCount <= 1)
    }
}
