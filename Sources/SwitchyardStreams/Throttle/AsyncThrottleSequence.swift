extension AsyncSequence where Self: Sendable, Element: Sendable {
    /// Emits at most one element per `interval`: the first at once, then one per window.
    ///
    /// - **Emits** an element that arrives while no window is open at once, opening a window
    ///   of `interval`. Elements arriving inside the window are held — the latest of them when
    ///   `latest` is `true`, the first when `false` — and the held element is emitted when the
    ///   window ends (driven by `clock`, not by the next element), opening the next window.
    /// - **Finishes** when this sequence finishes, after emitting a held element.
    /// - **Fails** at once with this sequence's failure; a held element is dropped.
    /// - **Buffers** the one held element, and up to 64 emitted elements the consumer has not
    ///   taken.
    ///
    /// Making the iterator subscribes to this sequence. The operator owns two tasks, running
    /// from the first `next`: one reads this sequence, one sleeps on `clock` until the window
    /// that holds an element ends. Both are cancelled when the consumer's task is cancelled or
    /// its iterator is released.
    ///
    /// ```swift
    /// for await position in positions.throttle(for: .seconds(1), latest: true) { upload(position) }
    /// ```
    ///
    /// - Parameters:
    ///   - interval: The length of a window; not negative.
    ///   - tolerance: Passed to `clock.sleep(until:tolerance:)`; defaults to `nil`.
    ///   - clock: The clock that measures windows; defaults to `ContinuousClock()`.
    ///   - latest: Whether a window emits its latest element (`true`) or its first (`false`).
    /// - Precondition: `interval` is not negative.
    @_disfavoredOverload  // swift-async-algorithms' operator of the same name wins when both are imported
    @inlinable public func throttle<C: Clock>(
        for interval: C.Duration,
        tolerance: C.Duration? = nil,
        clock: C = ContinuousClock(),
        latest: Bool
    ) -> AsyncThrottleSequence<Self, C> {
        let timing = OperatorTiming("throttle(for:)", interval: interval, tolerance: tolerance, clock: clock)
        return AsyncThrottleSequence(base: self, timing: timing, latest: latest)
    }
}

/// At most one element of a base sequence per interval. Made by
/// `throttle(for:tolerance:clock:latest:)`.
public struct AsyncThrottleSequence<Base: AsyncSequence & Sendable, C: Clock>: AsyncSequence, Sendable, DrivenOperator
where Base.Element: Sendable {
    /// Takes the throttled elements; `nil` once the base finished or the task was cancelled,
    /// and throws the base's failure.
    public typealias Iterator = AsyncOperatorIterator<Self, Element, Failure>
    /// The base's element type.
    public typealias Element = Base.Element
    /// The base's failure type, unchanged.
    public typealias Failure = Base.Failure
    @usableFromInline typealias Machine = ThrottleStateMachine<Element, C.Instant>
    @usableFromInline typealias Driver = OperatorDriver<Machine, Element, Failure>

    @usableFromInline let base: Base
    @usableFromInline let timing: OperatorTiming<C>
    @usableFromInline let latest: Bool

    @inlinable init(base: Base, timing: OperatorTiming<C>, latest: Bool) {
        self.base = base
        self.timing = timing
        self.latest = latest
    }

    /// Makes an iterator, subscribing to the base at once (by making its iterator); the base
    /// is read from the first `next` on.
    @inlinable public func makeAsyncIterator() -> Iterator {
        let driver = Driver(machine: Machine(interval: timing.interval, latest: latest))
        driver.hold(base, timing: timing)
        return Iterator(driver)
    }
}
