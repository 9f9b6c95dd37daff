extension AsyncSequence where Self: Sendable, Element: Sendable {
    /// Gathers the elements that arrive in each window of `interval` into one array
    /// (Combine's `collect(.byTime)`).
    ///
    /// - **Emits** at the end of every window the elements that arrived in it, in order; a
    ///   window in which nothing arrived emits nothing. Windows follow each other every
    ///   `interval` on `clock` from the consumer's first `next`.
    /// - **Finishes** when this sequence finishes, after the array of what was left.
    /// - **Fails** with this sequence's failure, after the array of what was left (Combine
    ///   drops it; here nothing is lost).
    /// - **Buffers** the current window's elements (as many as arrive in one interval), and up
    ///   to 64 arrays the consumer has not taken; this sequence is then held back.
    ///
    /// Making the iterator subscribes to this sequence. The operator owns two tasks, running
    /// from the first `next`: one reads this sequence, one sleeps on `clock` until the window
    /// ends. Both are cancelled when the consumer's task is cancelled or its iterator released.
    ///
    /// ```swift
    /// for await batch in logLines.collect(every: .seconds(1)) { upload(batch) }
    /// ```
    /// - Parameters:
    ///   - interval: The length of a window; more than zero.
    ///   - tolerance: Passed to `clock.sleep(until:tolerance:)`; defaults to `nil`.
    ///   - clock: Measures the windows; defaults to `ContinuousClock()`. Tests pass a `ManualClock`.
    /// - Precondition: `interval` is more than zero.
    @inlinable public func collect<C: Clock>(
        every interval: C.Duration,
        tolerance: C.Duration? = nil,
        clock: C = ContinuousClock()
    ) -> AsyncCollectTimedSequence<Self, C> {
        collect(count: .max, orEvery: interval, tolerance: tolerance, clock: clock)
    }

    /// Gathers elements into arrays of at most `count`, emitting one whenever it is full or a
    /// window of `interval` ends (Combine's `collect(.byTimeOrCount)`, swift-async-algorithms'
    /// `chunks(ofCount:or:)`).
    ///
    /// Like `collect(every:)`, and an array is also emitted as soon as it holds `count`
    /// elements; the windows keep their pace (a full array does not restart one). This
    /// sequence is read only while fewer than 64 arrays wait for the consumer, so at most
    /// `count` times 64 elements are buffered.
    ///
    /// ```swift
    /// for await batch in events.collect(count: 500, orEvery: .milliseconds(200)) { send(batch) }
    /// ```
    /// - Precondition: `count` is at least 1 and `interval` more than zero.
    @inlinable public func collect<C: Clock>(
        count: Int,
        orEvery interval: C.Duration,
        tolerance: C.Duration? = nil,
        clock: C = ContinuousClock()
    ) -> AsyncCollectTimedSequence<Self, C> {
        precondition(count >= 1, "collect(count:orEvery:) needs a count of at least 1, got \(count)")
        let timing = OperatorTiming("collect(every:)", interval: interval, tolerance: tolerance, clock: clock, allowsZero: false)
        return AsyncCollectTimedSequence(base: self, count: count, timing: timing)
    }
}

/// A base sequence's elements gathered into arrays per window of time, or per count. Made by
/// `collect(every:tolerance:clock:)` and `collect(count:orEvery:tolerance:clock:)`.
public struct AsyncCollectTimedSequence<Base: AsyncSequence & Sendable, C: Clock>: AsyncSequence, Sendable, DrivenOperator
where Base.Element: Sendable {
    /// Takes the arrays; `nil` once the base ended or the task was cancelled, and throws the
    /// base's failure after the last array.
    public typealias Iterator = AsyncOperatorIterator<Self, Element, Failure>
    /// Arrays of the base's elements.
    public typealias Element = [Base.Element]
    /// The base's failure type, unchanged.
    public typealias Failure = Base.Failure
    @usableFromInline typealias Machine = CollectStateMachine<Base.Element, C.Instant>
    @usableFromInline typealias Driver = OperatorDriver<Machine, Element, Failure>

    @usableFromInline let base: Base
    @usableFromInline let count: Int
    @usableFromInline let timing: OperatorTiming<C>

    @inlinable init(base: Base, count: Int, timing: OperatorTiming<C>) {
        self.base = base
        self.count = count
        self.timing = timing
    }

    /// Makes an iterator, subscribing to the base at once (by making its iterator); the base
    /// is read, and the windows start, from the first `next` on.
    @inlinable public func makeAsyncIterator() -> Iterator {
        let driver = Driver(machine: Machine(interval: timing.interval, count: count))
        let clock = timing.clock
        driver.read(base) { iterator in
            driver.update { machine, _ in machine.started(at: clock.now) }
            let end = await drain(&iterator) { element in
                await driver.updateThenWaitForRoom { machine, output in
                    if let full = machine.received(element) { output.emit(full) }
                }
            }
            driver.update { machine, output in
                if let rest = machine.upstreamEnded() { output.emit(rest) }
                switch end {
                case .success: output.finish()
                case .failure(let failure): output.fail(failure)
                }
            }
        }
        driver.spawnAfterStart {
            await driver.runDeadlines(self.timing, emits: true) { machine, output, now in
                if let window = machine.deadlineReached(at: now) { output.emit(window) }
            }
        }
        return Iterator(driver)
    }
}
