import Testing

@testable import NATSPlugin

/// Publishing from the journal without I/O: the drain pacer, the cursor's progress over
/// out-of-order acknowledgements, and the hand-over between journal and live stream, on a manual clock.
struct ForwardMachineTests {
    /// Without a rate everything is allowed; with one, a tenth of a second's burst, then the rate.
    @Test func pacerKeepsTheRate() {
        var unlimited = DrainPacer(rate: nil, now: .zero)
        let step1 = unlimited.allowance(now: .zero)
        #expect(step1 == Int.max)
        unlimited.spend(1_000_000)
        let step2 = unlimited.allowance(now: .zero)
        #expect(step2 == Int.max && unlimited.delay == .zero)

        var pacer = DrainPacer(rate: 1000, now: .zero)
        let step3 = pacer.allowance(now: .zero)
        #expect(step3 == 100)
        pacer.spend(100)
        let step4 = pacer.allowance(now: .zero)
        #expect(step4 == 0)
        #expect(pacer.delay == .milliseconds(1))
        let step5 = pacer.allowance(now: .milliseconds(10))
        #expect(step5 == 10)
        pacer.spend(10)
        // A long pause refills only the burst: the backlog never goes out at once.
        let step6 = pacer.allowance(now: .seconds(60))
        #expect(step6 == 100)
        // Over a simulated ten seconds the pacer lets through no more than rate × time + burst.
        var total = 0
        var time = Duration.seconds(60)
        pacer.spend(100)
        for _ in 0..<10_000 {
            time += .milliseconds(1)
            let allowed = pacer.allowance(now: time)
            pacer.spend(allowed)
            total += allowed
        }
        #expect(total <= 10_000 && total >= 9_900)
    }

    /// The cursor moves only over an unbroken run of settled ids, whatever the acknowledgement order.
    @Test func progressFollowsSettledRuns() {
        var progress = ForwardProgress(cursor: 10, saveInterval: .milliseconds(200))
        #expect(progress.confirmed == 10)
        for id: UInt64 in [11, 13, 14, 17] { progress.sent(id) }
        progress.passed(through: 18)
        #expect(progress.confirmed == 10 && progress.outstandingCount == 4)
        progress.settled(14)
        progress.settled(13)
        #expect(progress.confirmed == 10)
        progress.settled(11)
        #expect(progress.confirmed == 16 && progress.outstandingCount == 1)
        progress.settled(99)
        progress.settled(11)
        #expect(progress.confirmed == 16)
        progress.settled(17)
        #expect(progress.confirmed == 18 && progress.outstandingCount == 0)
        progress.sent(5)
        #expect(progress.examined == 18)
    }

    /// The cursor is written when it moved, at most once per interval.
    @Test func progressSavesAtIntervals() {
        var progress = ForwardProgress(cursor: 0, saveInterval: .milliseconds(200))
        #expect(progress.due(now: .zero) == nil)
        progress.sent(1)
        progress.settled(1)
        #expect(progress.due(now: .zero) == 1)
        progress.didSave(1, now: .zero)
        progress.sent(2)
        progress.settled(2)
        #expect(progress.due(now: .milliseconds(199)) == nil)
        #expect(progress.due(now: .milliseconds(200)) == 2)
    }

    /// Live actions are published only while live and able; one left behind keeps the journal the source until read.
    @Test func sourceHandsOver() {
        var source = ForwardSource()
        #expect(!source.isLive)
        let step7 = source.live(5, examined: 5, drops: 0, canPublish: true)
        #expect(step7 == .skip)
        let step8 = source.live(6, examined: 5, drops: 0, canPublish: true)
        #expect(step8 == .leave)
        let step9 = source.reachedEnd(examined: 5, drops: 0, dropsNow: 0)
        #expect(!step9)
        let step10 = source.reachedEnd(examined: 6, drops: 0, dropsNow: 0)
        #expect(step10)
        let step11 = source.live(7, examined: 6, drops: 0, canPublish: true)
        #expect(step11 == .publish)
        // The window is full: the action is left, and the journal is the source again.
        let step12 = source.live(8, examined: 7, drops: 0, canPublish: false)
        #expect(step12 == .leave)
        #expect(!source.isLive)
        let step13 = source.reachedEnd(examined: 8, drops: 0, dropsNow: 0)
        #expect(step13)
        // The live stream dropped actions: publishing goes back to the journal.
        let step14 = source.live(9, examined: 8, drops: 1, canPublish: true)
        #expect(step14 == .leave)
        // Drops during a journal read keep the journal the source.
        let step15 = source.reachedEnd(examined: 9, drops: 1, dropsNow: 2)
        #expect(!step15)
        let step16 = source.reachedEnd(examined: 9, drops: 2, dropsNow: 2)
        #expect(step16)
        let step17 = source.live(10, examined: 9, drops: 2, canPublish: true)
        #expect(step17 == .publish)
    }
}
