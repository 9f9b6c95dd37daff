import SwitchyardStreams
import SwitchyardTesting
import Testing

/// Issue 12 point 4: "latest" follows send order for a `Broadcast` or `CurrentValue` source.
@Suite(.timeLimit(.minutes(1)))
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
        await checkSendOrder(other: other) { other.send($0) }
    }

    /// The same with a `CurrentValue`'s subscription as the other sequence.
    @Test func pairsWithTheCurrentValueSentJustBefore() async {
        let other = CurrentValue(-1)
        await checkSendOrder(other: other.subscribe()) { other.send($0) }
    }

    private func checkSendOrder<Other: AsyncSequence & Sendable>(
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
