import SwitchyardStreams
import SwitchyardTestSupport
import SwitchyardTesting
import Testing

/// Issue 12 point 4: "latest" follows send order for `Broadcast` and `CurrentValue` sources,
/// both ways, whenever the operator's task gets to run.
@Suite(.scaledTimeLimit(minutes: 1))
struct WithLatestFromOrderTests {
    /// A tap sent right after binding is paired with the `CurrentValue`'s value, every time.
    @Test func firstTapAfterBindingIsNeverLost() async {
        for attempt in 0..<300 {
            let draft = CurrentValue("draft")
            let taps = Broadcast<Int>()
            var iterator = taps.subscribe().withLatestFrom(draft).makeAsyncIterator()
            taps.send(attempt)
            let pair = await iterator.next()
            #expect(pair?.0 == attempt && pair?.1 == "draft")
        }
    }

    /// After `other.send(y); base.send(n)` from one task, `n` is paired with `y` (Broadcast).
    @Test func pairsWithTheBroadcastValueSentJustBefore() async {
        let other = Broadcast<Int>()
        await checkOtherFirst(other: other) { other.send($0) }
    }

    /// The same with a `CurrentValue`'s subscription as the other sequence.
    @Test func pairsWithTheCurrentValueSentJustBefore() async {
        let other = CurrentValue(-1)
        await checkOtherFirst(other: other.subscribe()) { other.send($0) }
    }

    /// After `base.send(n); other.send(y)`, `n` is paired with the value before `y`, though the
    /// operator reads both only after `y` was sent.
    @Test func neverPairsWithAValueSentAfter() async {
        let base = Broadcast<Int>()
        let other = CurrentValue(-1)
        var iterator = base.subscribe().withLatestFrom(other).makeAsyncIterator()
        for value in 0..<300 {
            base.send(value)
            other.send(value)
            let pair = await iterator.next()
            #expect(pair?.0 == value && pair?.1 == value - 1)
        }
    }

    /// 300 interleaved sends in both orders, all sent before any is read: each element is paired
    /// with exactly the value sent last before it.
    @Test func aBacklogPairsEachElementWithItsOwnLatest() async {
        let base = Broadcast<Int>()
        let other = Broadcast<Int>()
        var iterator = base.subscribe().withLatestFrom(other).makeAsyncIterator()
        other.send(-1)
        for value in 0..<300 { send(value, base: base, other: other) }
        for value in 0..<300 {
            let pair = await iterator.next()
            #expect(pair?.0 == value && pair?.1 == expectedLatest(value))
        }
    }

    /// A producer task sends in both orders while the consumer reads concurrently, 20 rounds of
    /// 300: every pair is the one send order defines, whoever runs first.
    @Test func concurrentReadingFollowsSendOrder() async {
        for _ in 0..<20 {
            let base = Broadcast<Int>()
            let other = Broadcast<Int>()
            var iterator = base.subscribe().withLatestFrom(other.subscribe()).makeAsyncIterator()
            let producer = Task {
                other.send(-1)
                for value in 0..<300 {
                    send(value, base: base, other: other)
                    if value % 7 == 0 { await Task.yield() }
                }
            }
            var wrong = 0
            for value in 0..<300 {
                let pair = await iterator.next()
                if pair?.0 != value || pair?.1 != expectedLatest(value) { wrong += 1 }
            }
            await producer.value
            #expect(wrong == 0)
        }
    }

    /// Values of the other sequence sent while no primary element comes replace each other:
    /// its buffer stays at one element.
    @Test func otherBufferStaysFlatWithoutPrimaryElements() async {
        let base = Broadcast<Int>()
        let other = CurrentValue(0)
        let otherSubscription = other.subscribe()
        var iterator = base.subscribe().withLatestFrom(otherSubscription).makeAsyncIterator()
        for value in 1...10_000 { other.send(value) }
        #expect(otherSubscription.bufferedCount <= 2)
        #expect(otherSubscription.droppedCount == 0)
        base.send(7)
        let pair = await iterator.next()
        #expect(pair?.0 == 7 && pair?.1 == 10_000)
    }

    private func send(_ value: Int, base: Broadcast<Int>, other: Broadcast<Int>) {
        if value.isMultiple(of: 2) {
            other.send(value)
            base.send(value)
        } else {
            base.send(value)
            other.send(value)
        }
    }

    /// Even values follow their own other-value, odd ones precede it.
    private func expectedLatest(_ value: Int) -> Int {
        value.isMultiple(of: 2) ? value : value - 1
    }

    private func checkOtherFirst<Other: AsyncSequence & Sendable>(
        other: Other,
        send: (Int) -> Void
    ) async where Other.Element == Int, Other.Failure == Never {
        let base = Broadcast<Int>()
        var iterator = base.subscribe().withLatestFrom(other).makeAsyncIterator()
        for value in 0..<300 {
            send(value * 10)
            base.send(value)
            let pair = await iterator.next()
            #expect(pair?.0 == value && pair?.1 == value * 10)
        }
    }
}
