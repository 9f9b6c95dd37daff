import Testing
@testable import SwitchyardIO

/// The timer queue's ordering and cancellation, without a clock.
struct TimerQueueTests {
    private let start = ContinuousClock.now

    /// Timers come out in deadline order, ties in the order they were scheduled.
    @Test func ordersByDeadlineThenSchedule() {
        var queue = TimerQueue<String>()
        _ = queue.schedule(at: start.advanced(by: .seconds(3)), "c")
        _ = queue.schedule(at: start.advanced(by: .seconds(1)), "a1")
        _ = queue.schedule(at: start.advanced(by: .seconds(1)), "a2")
        _ = queue.schedule(at: start.advanced(by: .seconds(2)), "b")
        var fired: [String] = []
        while let (_, payload) = queue.popDue(at: start.advanced(by: .seconds(10))) { fired.append(payload) }
        #expect(fired == ["a1", "a2", "b", "c"])
        #expect(queue.count == 0)
    }

    /// Nothing is due before its deadline, and the next deadline is the earliest live one.
    @Test func nothingBeforeItsDeadline() {
        var queue = TimerQueue<Int>()
        let first = queue.schedule(at: start.advanced(by: .seconds(1)), 1)
        _ = queue.schedule(at: start.advanced(by: .seconds(2)), 2)
        #expect(queue.popDue(at: start) == nil)
        #expect(queue.nextDeadline() == start.advanced(by: .seconds(1)))
        #expect(queue.cancel(first) == 1)
        #expect(queue.nextDeadline() == start.advanced(by: .seconds(2)))
        #expect(queue.popDue(at: start.advanced(by: .seconds(2)))?.payload == 2)
    }

    /// A cancelled timer never fires, cancelling twice returns nothing, and mass cancellation
    /// keeps the survivors in order.
    @Test func cancellation() {
        var queue = TimerQueue<Int>()
        var ids: [TimerID] = []
        for index in 0..<500 { ids.append(queue.schedule(at: start.advanced(by: .milliseconds(500 - index)), index)) }
        for (index, id) in ids.enumerated() where index % 7 != 0 { queue.cancel(id) }
        #expect(queue.cancel(ids[1]) == nil)
        var fired: [Int] = []
        while let (_, payload) = queue.popDue(at: start.advanced(by: .seconds(1))) { fired.append(payload) }
        #expect(fired == stride(from: 0, to: 500, by: 7).reversed())
    }
}

/// Durations turned into the loop's timeouts.
struct DurationMathTests {
    /// Milliseconds round up (a timer never fires early) and clamp at both ends.
    @Test(arguments: [
        (Duration.zero, Int32(0)), (.nanoseconds(1), 1), (.milliseconds(5), 5),
        (.microseconds(5_001), 6), (.seconds(-3), 0), (.seconds(Int64.max / 2), Int32.max),
    ])
    func timeoutMilliseconds(duration: Duration, expected: Int32) {
        #expect(duration.timeoutMilliseconds == expected)
    }

    /// Seconds as a Double keep the fraction.
    @Test func secondsValue() {
        #expect(Duration.milliseconds(1_500).secondsValue == 1.5)
    }
}
