/// The state machine of an operator that holds one element of its base for a moment of the
/// clock (`debounce`, `throttle`): elements come in with their arrival time, the timer
/// releases what is due, and the base's end delivers what is still held.
@usableFromInline protocol HoldingMachine: DeadlineMachine {
    associatedtype Element: Sendable
    /// Whether reading the base waits while the output is full. `throttle` emits as it
    /// reads, so it pushes back as every producer does; `debounce` never emits on reading and
    /// keeps reading, so time keeps being measured.
    static var readingWaitsForRoom: Bool { get }
    /// Takes `element`, arrived at `now`, and emits what that releases.
    mutating func received(_ element: Element, at now: Instant, emit: (Element) -> Void)
    /// The timer woke at `now`: emits what is due (nothing when it woke early).
    mutating func deadlineReached(at now: Instant, emit: (Element) -> Void)
    /// The element still held when the base finished, to deliver before finishing: nothing
    /// is lost on finish.
    mutating func upstreamFinished() -> Element?
    /// The base failed: the element still held to deliver before the failure (`throttle`:
    /// a value it already promised is not lost), or `nil` to fail at once (`debounce`: its
    /// pending element is not yet a value, only a candidate, as in Combine).
    mutating func upstreamFailed() -> Element?
}

extension OperatorDriver where Machine: HoldingMachine, Machine.Element == Element {
    /// Runs a holding operator over `base`: subscribes now and, from the consumer's first
    /// `next` on, reads `base` in one owned task (stamping each element with the time)
    /// and sleeps on `timing`'s clock until the machine's deadline in another.
    @inlinable func hold<Base: AsyncSequence & Sendable, C: Clock>(
        _ base: Base, timing: OperatorTiming<C>
    ) where Base.Element == Element, Base.Failure == Failure, C.Instant == Machine.Instant {
        let clock = timing.clock
        read(base) { iterator in await self.consumeHeld(&iterator, clock: clock) }
        spawnAfterStart {
            await self.runDeadlines(timing, emits: true) { machine, output, now in
                machine.deadlineReached(at: now) { output.emit($0) }
            }
        }
    }

    @inlinable func consumeHeld<Iterator: AsyncIteratorProtocol, C: Clock>(
        _ iterator: inout Iterator, clock: C
    ) async where Iterator.Element == Element, Iterator.Failure == Failure, C.Instant == Machine.Instant {
        let end = await drain(&iterator) { element in
            let now = clock.now
            guard Machine.readingWaitsForRoom else {
                return update { machine, output in
                    machine.received(element, at: now) { output.emit($0) }
                    return !output.isEnded
                }
            }
            return await updateThenWaitForRoom { machine, output in
                machine.received(element, at: now) { output.emit($0) }
            }
        }
        update { machine, output in
            switch end {
            case .success:
                if let held = machine.upstreamFinished() { output.emit(held) }
                output.finish()
            case .failure(let failure):
                if let held = machine.upstreamFailed() { output.emit(held) }
                output.fail(failure)
            }
        }
    }
}
