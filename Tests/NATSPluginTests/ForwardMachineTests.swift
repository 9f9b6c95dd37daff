import Testing

@testable import NATSPlugin

/// Publishing from the journal without I/O: the drain pacer, the cursor's progress over
/// out-of-order, repeated and stray acknowledgements, and the hand-over between journal and
/// live stream, on a manual clock.
struct ForwardMachineTests {
    private static func progress(after cursor: UInt64 = 0, sent: [UInt64] = [], passedThrough: UInt64? = nil) -> ForwardProgress {
        var progress = ForwardProgress(cursor: cursor, saveInterval: .milliseconds(200))
        for id in sent { progress.sent(id) }
        if let passedThrough { progress.passed(through: passedThrough) }
        return progress
    }

    /// A pacer's allowance at `now`, then `spend` of it spent.
    private static func allow(_ pacer: inout DrainPacer, at now: Duration, spend: Int = 0) -> Int {
        let allowed = pacer.allowance(now: now)
        pacer.spend(spend)
        return allowed
    }

    /// Without a rate everything is allowed; with one, a tenth of a second's burst, then the rate.
    @Test func pacerKeepsTheRate() {
        var unlimited = DrainPacer(rate: nil, now: .zero)
        #expect(Self.allow(&unlimited, at: .zero, spend: 1_000_000) == Int.max)
        #expect(Self.allow(&unlimited, at: .zero) == Int.max && unlimited.delay == .zero)

        var pacer = DrainPacer(rate: 1000, now: .zero)
        #expect(Self.allow(&pacer, at: .zero, spend: 100) == 100)
        #expect(Self.allow(&pacer, at: .zero) == 0)
        #expect(pacer.delay == .milliseconds(1))
        #expect(Self.allow(&pacer, at: .milliseconds(10), spend: 10) == 10)
        // A long pause refills only the burst: the backlog never goes out at once.
        #expect(Self.allow(&pacer, at: .seconds(60), spend: 100) == 100)
        // Over a simulated ten seconds the pacer lets through no more than rate × time + burst.
        var total = 0
        var time = Duration.seconds(60)
        for _ in 0..<10_000 {
            time += .milliseconds(1)
            let allowed = pacer.allowance(now: time)
            pacer.spend(allowed)
            total += allowed
        }
        #expect(total <= 10_000 && total >= 9_900)
    }

    /// 10,000 actions at 1000/s from a full bucket take at least 9.9 s: the "≥ 9 s" drain.
    @Test func drainOfTenThousandTakesNineSeconds() {
        var pacer = DrainPacer(rate: 1000, now: .zero)
        var sent = 0
        var time = Duration.zero
        while sent < 10_000 {
            let allowed = min(pacer.allowance(now: time), 10_000 - sent)
            pacer.spend(allowed)
            sent += allowed
            if sent < 10_000 { time += max(pacer.delay, .microseconds(1)) }
        }
        #expect(time >= .milliseconds(9_900), "drained in \(time)")
    }

    /// The cursor moves only over an unbroken run of settled ids, whatever the acknowledgement order.
    @Test func progressFollowsSettledRuns() {
        var progress = Self.progress(after: 10, sent: [11, 13, 14, 17], passedThrough: 18)
        #expect(progress.confirmed == 10 && progress.outstandingCount == 4)
        progress.settled(14)
        progress.settled(13)
        #expect(progress.confirmed == 10)
        progress.settled(11)
        #expect(progress.confirmed == 16 && progress.outstandingCount == 1)
        progress.settled(17)
        #expect(progress.confirmed == 18 && progress.outstandingCount == 0)
        progress.sent(5)
        #expect(progress.examined == 18)
    }

    /// Acknowledgements for ids already settled, repeated ones, and ones for ids passed over or never read change nothing.
    @Test func settledIdsAreIgnored() {
        var progress = Self.progress(after: 10, sent: [11, 13, 15], passedThrough: 16)
        progress.settled(13)
        progress.settled(13)
        // 12 and 14 were passed over (not published), 99 never read, 10 settled before this start.
        for stray: UInt64 in [12, 14, 99, 10] { progress.settled(stray) }
        #expect(progress.confirmed == 10 && progress.outstandingCount == 2)
        progress.settled(11)
        #expect(progress.confirmed == 14 && progress.outstandingCount == 1)
        for settledBefore: UInt64 in [11, 13, 12] { progress.settled(settledBefore) }
        #expect(progress.confirmed == 14 && progress.outstandingCount == 1)
        progress.settled(15)
        #expect(progress.confirmed == 16 && progress.outstandingCount == 0)
        progress.settled(15)
        progress.sent(17)
        #expect(progress.confirmed == 16 && progress.outstandingCount == 1)
    }

    /// The cursor is written when it moved, at most once per interval.
    @Test func progressSavesAtIntervals() {
        var progress = Self.progress(sent: [1])
        #expect(progress.due(now: .zero) == nil)
        progress.settled(1)
        #expect(progress.due(now: .zero) == 1)
        progress.didSave(1, now: .zero)
        progress.sent(2)
        progress.settled(2)
        #expect(progress.due(now: .milliseconds(199)) == nil)
        #expect(progress.due(now: .milliseconds(200)) == 2)
    }

    /// A live action: its id, the examined id, the drops, whether the bridge can publish, and what the source decides.
    private struct LiveStep {
        var id: UInt64, examined: UInt64, drops: Int, canPublish: Bool, expected: ForwardSource.Decision
    }

    /// Live actions are published only while live and able; one left behind keeps the journal the source until read.
    @Test func sourceHandsOver() {
        var source = ForwardSource()
        #expect(!source.isLive)
        func live(_ step: LiveStep) {
            let decision = source.live(step.id, examined: step.examined, drops: step.drops, canPublish: step.canPublish)
            #expect(decision == step.expected, "action \(step.id)")
        }
        func reachedEnd(_ examined: UInt64, drops: Int = 0, dropsNow: Int = 0) -> Bool {
            source.reachedEnd(examined: examined, drops: drops, dropsNow: dropsNow)
        }
        live(LiveStep(id: 5, examined: 5, drops: 0, canPublish: true, expected: .skip))
        live(LiveStep(id: 6, examined: 5, drops: 0, canPublish: true, expected: .leave))
        #expect(!reachedEnd(5))
        #expect(reachedEnd(6))
        live(LiveStep(id: 7, examined: 6, drops: 0, canPublish: true, expected: .publish))
        // The window is full: the action is left, and the journal is the source again.
        live(LiveStep(id: 8, examined: 7, drops: 0, canPublish: false, expected: .leave))
        #expect(!source.isLive)
        #expect(reachedEnd(8))
        // The live stream dropped actions: publishing goes back to the journal.
        live(LiveStep(id: 9, examined: 8, drops: 1, canPublish: true, expected: .leave))
        // Drops during a journal read keep the journal the source.
        #expect(!reachedEnd(9, drops: 1, dropsNow: 2))
        #expect(reachedEnd(9, drops: 2, dropsNow: 2))
        live(LiveStep(id: 10, examined: 9, drops: 2, canPublish: true, expected: .publish))
    }
}
