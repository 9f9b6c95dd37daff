import Testing

@testable import ExecPlugin

/// The state shared by a child connection's threads, driven without processes.
struct ChildConnectionStateTests {
    private func makeState(eventCapacity: Int = 2) -> ChildConnectionState {
        var limits = ChildLimits()
        limits.eventCapacity = eventCapacity
        limits.inputCapacity = 2
        return ChildConnectionState(limits: limits)
    }

    private func output(_ text: String) -> ChildEvent {
        .output(Array(text.utf8))
    }

    /// Events come out in order, the exit event last, then the end.
    @Test func deliversInOrderThenEnds() {
        var state = makeState()
        #expect(state.deliver([output("a"), output("b")]) == nil)
        #expect(state.finish(.exited(code: 0)) == nil)
        var taken: [ChildEvent] = []
        while case .event(let event, _) = state.takeEvent() {
            taken.append(event)
        }
        #expect(taken == [output("a"), output("b"), .exited(.exited(code: 0))])
        guard case .end = state.takeEvent() else {
            Issue.record("expected the end after the exit event")
            return
        }
    }

    /// Reading pauses at capacity, and taking an event wakes the I/O thread exactly once.
    @Test func wakesReaderWhenRoomReturns() {
        var state = makeState(eventCapacity: 2)
        _ = state.deliver([output("a"), output("b")])
        #expect(state.planIO(wantsBatch: false, inputOpen: true).readOutput == false)
        guard case .event(_, let firstWake) = state.takeEvent(), case .event(_, let secondWake) = state.takeEvent() else {
            Issue.record("expected two events")
            return
        }
        #expect(firstWake == true)
        #expect(secondWake == false)
        #expect(state.planIO(wantsBatch: false, inputOpen: true).readOutput == true)
    }

    /// A consumer waiting for an event gets the next one delivered.
    @Test func handsEventToWaitingConsumer() async {
        let event: ChildEvent? = await withCheckedContinuation { continuation in
            var state = makeState()
            guard case .wait = state.takeEvent() else {
                continuation.resume(returning: nil)
                return
            }
            state.suspend(continuation)
            if let (consumer, event) = state.deliver([output("x")]) {
                consumer.resume(returning: event)
            }
        }
        #expect(event == output("x"))
    }

    /// Enqueueing wakes the I/O thread once until it plans again; a batch is taken on request.
    @Test func enqueueWakesOnce() {
        var state = makeState()
        #expect(state.enqueue([1]).wakeIO == true)
        #expect(state.enqueue([2]).wakeIO == false)
        let plan = state.planIO(wantsBatch: true, inputOpen: true)
        #expect(plan.batch?.lines == 2)
        #expect(state.enqueue([3]).wakeIO == true)
    }

    /// A requested close reaches the I/O thread, and later lines are discarded.
    @Test func closeRequestReachesIO() {
        var state = makeState()
        _ = state.enqueue([1])
        _ = state.planIO(wantsBatch: false, inputOpen: true)
        #expect(state.requestInputClose() == true)
        #expect(state.requestInputClose() == false)
        let plan = state.planIO(wantsBatch: true, inputOpen: true)
        #expect(plan.closeInput)
        #expect(plan.batch == nil)
        state.recordInputClosed(unwrittenLines: 0)
        #expect(state.enqueue([2]) == (.closed, false))
        #expect(state.input.counters.discarded == 2)
    }

    /// Nothing wakes the I/O thread once it is closing its wake pipe.
    @Test func noWakeAfterRetiringWakePipe() {
        var state = makeState()
        state.retireWakePipe()
        #expect(state.requestWake() == false)
        #expect(state.enqueue([1]).wakeIO == false)
    }
}
