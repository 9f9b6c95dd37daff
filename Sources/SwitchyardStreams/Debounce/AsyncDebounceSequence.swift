extension AsyncSequence where Self: Sendable, Element: Sendable {
    /// Emits an element only after `interval` has passed without a newer one (trailing edge).
    ///
    /// - **Emits** the latest element once `interval` has passed on `clock` since it arrived
    ///   with no newer element; each newer element restarts the wait.
    /// - **Finishes** when this sequence finishes, after emitting the element still waiting
    ///   (nothing is lost on finish).
    /// - **Fails** at once with this sequence's failure, even when no `next` is waiting (it is
    ///   kept for the next call); the element still waiting is dropped.
    /// - **Buffers** the one waiting element, and up to 64 emitted elements the consumer has
    ///   not taken.
    ///
    /// Making the iterator subscribes to this sequence. The operator owns two tasks, running
    /// from the first `next`: one reads this sequence (it never waits for the consumer, so
    /// time keeps being measured), one sleeps on `clock` until the current deadline. Both are
    /// cancelled when the consumer's task is cancelled or its iterator is released.
    ///
    /// ```swift
    /// for await query in keystrokes.debounce(for: .milliseconds(250)) { search(query) }
    /// ```
    ///
    /// - Parameters:
    ///   - interval: The quiet time after an element before it is emitted; not negative.
    ///   - tolerance: Passed to `clock.sleep(until:tolerance:)`; defaults to `nil` (the
    ///     clock's own default).
    ///   - clock: The clock that measures the interval; defaults to `ContinuousClock()`. Tests
    ///     pass a `ManualClock`.
    /// - Precondition: `interval` is not negative.
    @_disfavoredOverload  // swift-async-algorithms' operator of the same name wins when both are imported
    @inlinable public func debounce<C: Clock>(
        for interval: C.Duration,
        tolerance: C.Duration? = nil,
        clock: C = ContinuousClock()
    ) -> AsyncDebounceSequence<Self, C> {
        AsyncDebounceSequence(base: self, timing: OperatorTiming("debounce(for:)", interval: interval, tolerance: tolerance, clock: clock))
    }
}

/// The elements of a base sequence that were followed by a quiet interval. Made by
/// `debounce(for:tolerance:clock:)`.
public struct AsyncDebounceSequence<Base: AsyncSequence & Sendable, C: Clock>: AsyncSequence, Sendable, DrivenOperator
where Base.Element: Sendable {
    /// Takes the debounced elements; `nil` once the base finished or the task was cancelled,
    /// and throws the base's failure.
    public typealias Iterator = AsyncOperatorIterator<Self, Element, Failure>
    /// The base's element type.
    public typealias Element = Base.Element
    /// The base's failure type, unchanged.
    public typealias Failure = Base.Failure
    @usableFromInline typealias Machine = DebounceStateMachine<Element, C.Instant>
    @usableFromInline typealias Driver = OperatorDriver<Machine, Element, Failure>

    @usableFromInline let base: Base
    @usableFromInline let timing: OperatorTiming<C>

    @inlinable init(base: Base, timing: OperatorTiming<C>) {
        self.base = base
        self.timing = timing
    }

    /// Makes an iterator, subscribing to the base at once (by making its iterator); the base
    /// is read, and time measured, from the first `next` on.
    @inlinable public func makeAsyncIterator() -> Iterator {
        let driver = Driver(machine: Machine(interval: timing.interval))
        driver.hold(base, timing: timing)
        return Iterator(driver)
    }
}
