/// The state a child connection's bus side, and its loop side (on the event loop) share, kept
/// under one lock. Every method is a pure transition; the caller performs what it returns
/// (firing the loop side's wake signal, resuming the consumer) so the logic is tested without processes.
struct ChildConnectionState: Sendable {
    /// What the loop side should do next, decided under the lock.
    struct IOPlan: Sendable {
        /// Close the child's stdin now: the bus side asked for it.
        var closeInput = false
        /// Lines to write next, joined, and how many lines they are.
        var batch: (bytes: [UInt8], lines: Int)?
        /// Whether there is room to read more of the child's output.
        var readOutput = false
        /// Set once the child has been reaped.
        var exitStatus: ChildExitStatus?
    }

    /// What a consumer asking for the next event gets.
    enum Take: Sendable {
        /// The next event; `wakeIO` when taking it made room the loop side is waiting for.
        case event(ChildEvent, wakeIO: Bool)
        /// The exit event has been taken: nothing follows.
        case end
        /// Nothing buffered yet: wait.
        case wait
    }

    let limits: ChildLimits
    private(set) var input: InputQueue
    private var events = RingBuffer<ChildEvent>()
    private var eventBytes = 0
    private var consumer: CheckedContinuation<ChildEvent?, Never>?
    private(set) var exitStatus: ChildExitStatus?
    private var inputCloseRequested = false
    private var ioWaitsForRoom = false
    private var wakePending = false
    private var isWakePipeRetired = false
    private var exitTaken = false
    /// Set once the child has exited (before it is reaped): its group is no longer signalled.
    private(set) var isLeaderGone = false
    /// The most bytes of output buffered at once, to check the bound.
    private(set) var peakEventBytes = 0

    /// Creates the state of a connection to a child just started.
    init(limits: ChildLimits) {
        self.limits = limits
        self.input = InputQueue(capacity: limits.inputCapacity, overflow: limits.inputOverflow)
    }

    private var hasRoomForEvents: Bool {
        events.count < limits.eventCapacity && eventBytes < limits.maximumLineLength
    }

    // MARK: Waking the loop side

    /// Whether the wake signal must be fired to reach the loop side: not when one is
    /// already on its way, nor once the loop side has stopped listening.
    mutating func requestWake() -> Bool {
        guard !wakePending, !isWakePipeRetired else { return false }
        wakePending = true
        return true
    }

    // MARK: The bus side

    /// Queues a line for the child's stdin; returns what happened and whether to wake the
    /// loop side.
    mutating func enqueue(_ line: [UInt8]) -> (result: InputQueue.PushResult, wakeIO: Bool) {
        let result = input.push(line)
        return (result, result != .closed && requestWake())
    }

    /// Asks the loop side to close the child's stdin; returns whether to wake it.
    mutating func requestInputClose() -> Bool {
        guard !inputCloseRequested else { return false }
        inputCloseRequested = true
        return requestWake()
    }

    /// Takes the next event, or says there is none yet or none ever.
    mutating func takeEvent() -> Take {
        guard let event = popEvent() else { return exitTaken ? .end : .wait }
        let wakeIO = ioWaitsForRoom && hasRoomForEvents && requestWake()
        return .event(event, wakeIO: wakeIO)
    }

    /// Registers a consumer waiting for an event; call only after ``takeEvent()`` said `.wait`.
    mutating func suspend(_ continuation: CheckedContinuation<ChildEvent?, Never>) {
        precondition(consumer == nil, "a child connection has one consumer at a time")
        consumer = continuation
    }

    /// Removes the waiting consumer, for the caller to resume with `nil` (its task was
    /// cancelled).
    mutating func cancelConsumer() -> CheckedContinuation<ChildEvent?, Never>? {
        defer { consumer = nil }
        return consumer
    }

    // MARK: The loop side

    /// Decides the loop side's next step. `wantsBatch` when it has nothing left to write,
    /// `inputOpen` while it still holds the child's stdin.
    mutating func planIO(wantsBatch: Bool, inputOpen: Bool) -> IOPlan {
        wakePending = false
        var plan = IOPlan()
        if inputOpen, inputCloseRequested {
            plan.closeInput = true
        } else if inputOpen, wantsBatch {
            plan.batch = input.takeBatch(maximumBytes: limits.writeBatchBytes)
        }
        plan.readOutput = hasRoomForEvents
        ioWaitsForRoom = !plan.readOutput
        plan.exitStatus = exitStatus
        return plan
    }

    /// Counts lines written to the child in full.
    mutating func recordWritten(lines: Int) {
        input.recordWritten(lines: lines)
    }

    /// Records that the child's stdin is closed, with `unwrittenLines` of a batch in progress.
    mutating func recordInputClosed(unwrittenLines: Int) {
        input.close(unwrittenLines: unwrittenLines)
    }

    /// Buffers events from the child; returns the consumer to resume, if one waits, with the
    /// first event. Bounds are the loop side's business: it reads only when there is room.
    mutating func deliver(_ newEvents: [ChildEvent]) -> (CheckedContinuation<ChildEvent?, Never>, ChildEvent)? {
        for event in newEvents {
            events.append(event)
            eventBytes += event.byteCount
        }
        peakEventBytes = max(peakEventBytes, eventBytes)
        return handOver()
    }

    /// Records that the child has exited and is about to be reaped.
    mutating func recordLeaderGone() {
        isLeaderGone = true
    }

    /// Records the reaped child's status; returns whether to wake the loop side.
    mutating func recordExit(_ status: ChildExitStatus) -> Bool {
        exitStatus = status
        return requestWake()
    }

    /// The loop side has stopped listening: from now on nobody wakes it.
    mutating func retireWakePipe() {
        isWakePipeRetired = true
    }

    /// The loop side is done: every descriptor is closed, and the exit event follows the
    /// buffered ones. Returns the consumer to resume, if one waits.
    mutating func finish(_ status: ChildExitStatus) -> (CheckedContinuation<ChildEvent?, Never>, ChildEvent)? {
        events.append(.exited(status))
        return handOver()
    }

    // The loop side plans again after delivering, so handing over needs no wake-up.
    private mutating func handOver() -> (CheckedContinuation<ChildEvent?, Never>, ChildEvent)? {
        guard let waiting = consumer, let event = popEvent() else { return nil }
        consumer = nil
        return (waiting, event)
    }

    private mutating func popEvent() -> ChildEvent? {
        guard let event = events.popFirst() else { return nil }
        eventBytes -= event.byteCount
        if case .exited = event {
            exitTaken = true
        }
        return event
    }
}
