extension AsyncSequence where Self: Sendable, Element: Sendable {
    /// Emits each element `interval` after it arrived, keeping the spacing between elements
    /// (Combine's `delay(for:scheduler:)`).
    ///
    /// - **Emits** every element, in order, `interval` on `clock` after it was read.
    /// - **Finishes** `interval` after this sequence finished, after every element.
    /// - **Fails** `interval` after this sequence failed, after every element read before it
    ///   (nothing is lost).
    /// - **Buffers** up to 64 elements waiting for their time (then this sequence is read only
    ///   once the first is emitted), and up to 64 emitted elements the consumer has not taken.
    ///
    /// Making the iterator subscribes to this sequence. The operator owns two tasks, running
    /// from the first `next`: one reads this sequence (stamping each element with `clock`'s
    /// time), one sleeps on `clock` until the next element is due. Both are cancelled when the
    /// consumer's task is cancelled or its iterator is released.
    ///
    /// ```swift
    /// for await toast in toasts.delay(for: .milliseconds(300)) { show(toast) }
    /// ```
    /// - Parameters:
    ///   - interval: How long each element is held; not negative.
    ///   - tolerance: Passed to `clock.sleep(until:tolerance:)`; defaults to `nil`.
    ///   - clock: Measures the interval; defaults to `ContinuousClock()`. Tests pass a `ManualClock`.
    /// - Precondition: `interval` is not negative.
    @inlinable public func delay<C: Clock>(
        for interval: C.Duration,
        tolerance: C.Duration? = nil,
        clock: C = ContinuousClock()
    ) -> AsyncDelaySequence<Self, C> {
        AsyncDelaySequence(base: self, timing: OperatorTiming("delay(for:)", interval: interval, tolerance: tolerance, clock: clock))
    }
}

/// A base sequence's elements, each emitted a fixed time after it arrived. Made by
/// `delay(for:tolerance:clock:)`.
public struct AsyncDelaySequence<Base: AsyncSequence & Sendable, C: Clock>: AsyncSequence, Sendable, DrivenOperator
where Base.Element: Sendable {
    /// Takes the delayed elements; `nil` once the base's delayed finish was reached or the
    /// task was cancelled, and throws the base's failure after the elements before it.
    public typealias Iterator = AsyncOperatorIterator<Self, Element, Failure>
    /// The base's element type.
    public typealias Element = Base.Element
    /// The base's failure type, unchanged.
    public typealias Failure = Base.Failure
    @usableFromInline typealias Machine = DelayStateMachine<Element, Failure, C.Instant>
    @usableFromInline typealias Driver = OperatorDriver<Machine, Element, Failure>

    @usableFromInline let base: Base
    @usableFromInline let timing: OperatorTiming<C>

    @inlinable init(base: Base, timing: OperatorTiming<C>) {
        self.base = base
        self.timing = timing
    }

    /// Makes an iterator, subscribing to the base at once (by making its iterator); the base
    /// is read from the first `next` on.
    @inlinable public func makeAsyncIterator() -> Iterator {
        let driver = Driver(machine: Machine(interval: timing.interval))
        let clock = timing.clock
        driver.read(base) { iterator in
            let end = await drain(&iterator) { element in
                let now = clock.now
                let (running, full) = driver.update { machine, output in
                    machine.received(element, at: now)
                    return (!output.isEnded, machine.isFull)
                }
                guard running, full else { return running }
                return await driver.wait { !$0.isFull }
            }
            let now = clock.now
            driver.update { machine, _ in machine.upstreamEnded(end, at: now) }
        }
        driver.spawnAfterStart {
            await driver.runDeadlines(self.timing, emits: true) { machine, output, now in
                machine.deadlineReached(at: now, output: &output)
            }
        }
        return Iterator(driver)
    }
}
