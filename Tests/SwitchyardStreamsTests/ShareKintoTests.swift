import SwitchyardStreams
import SwitchyardTesting
import Testing

/// Issue 12 point 3: `share` buffers per subscriber and `zip` never holds back a shared source.
@Suite(.timeLimit(.minutes(1)))
struct ShareKintoTests {
    /// KINTO's `transform`: taps shared between a text output and `didLoad.zip(taps)`; one
    /// `viewDidLoad`, 500 taps. The text output gets every tap (it froze after tap 129).
    @Test func textOutputKeepsRunningBesideZip() async {
        let taps = Broadcast<Int>()
        let didLoad = Broadcast<Void>()
        let shared = taps.subscribe(bufferSize: 1024, overflow: .suspendProducer).share()
        let text = TestRecorder(shared.map { "tap \($0)" })
        let loadedOnce = TestRecorder(didLoad.subscribe().zip(shared))
        didLoad.send(())
        for tap in 0..<500 { await taps.deliver(tap) }
        let shown = await text.waitForElements(count: 500)
        #expect(shown == (0..<500).map { "tap \($0)" })
        let paired = await loadedOnce.waitForElements(count: 1)
        #expect(paired.map(\.1) == [0])
    }

    /// A subscriber that never reads, bounded with its own policy, costs the others nothing.
    @Test func perSubscriberPolicyDropsOnlyForThatSubscriber() async {
        let source = Broadcast<Int>()
        let shared = source.subscribe(bufferSize: 1024, overflow: .suspendProducer).share()
        var idle = shared.buffering(2, whenFull: .dropOldest).makeAsyncIterator()
        let reader = TestRecorder(shared)
        for value in 0..<300 { await source.deliver(value) }
        #expect(await reader.waitForElements(count: 300) == Array(0..<300))
        #expect(await idle.next() == 298)
        #expect(await idle.next() == 299)
    }

    /// By default a subscriber that falls behind buffers without limit: the fast one is never
    /// held back, and the slow one still gets everything in order.
    @Test func defaultSubscriberNeverStallsTheOthers() async {
        let source = Broadcast<Int>()
        let shared = source.subscribe(bufferSize: 1024, overflow: .suspendProducer).share()
        var slow = shared.makeAsyncIterator()
        let fast = TestRecorder(shared)
        for value in 0..<2_000 { await source.deliver(value) }
        #expect(await fast.waitForElements(count: 2_000).count == 2_000)
        var seen: [Int] = []
        for _ in 0..<2_000 {
            if let value = await slow.next() { seen.append(value) }
        }
        #expect(seen == Array(0..<2_000))
    }
}
