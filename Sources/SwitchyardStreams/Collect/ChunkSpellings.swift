// swift-async-algorithms' spellings of `collect`, so code written against its chunking
// operators reads the same here. Each is the `collect` it names, with the same semantics.

extension AsyncSequence {
    /// Gathers elements into arrays of `count`; the same as `collect(count:)`
    /// (swift-async-algorithms' spelling).
    ///
    /// Emits each full array as soon as it is full, then, when this sequence ends, the shorter
    /// array of what is left, if anything is. A failure comes after the elements gathered
    /// before it. Starts no task and buffers at most `count` elements.
    ///
    /// ```swift
    /// for await batch in readings.chunks(ofCount: 100) { store(batch) }
    /// ```
    /// - Precondition: `count` is at least 1.
    @_disfavoredOverload  // swift-async-algorithms' operator of the same name wins when both are imported
    @inlinable public func chunks(ofCount count: Int) -> AsyncCollectCountSequence<Self> {
        collect(count: count)
    }
}

extension AsyncSequence where Self: Sendable, Element: Sendable {
    /// Gathers elements into arrays of at most `count`, emitting one whenever it is full or
    /// `timer` ticks; the same as `collect(count:orEvery:tolerance:clock:)` with the timer's
    /// interval, tolerance and clock (swift-async-algorithms' spelling).
    ///
    /// A tick with nothing gathered emits nothing, and a full array does not move the ticks.
    /// Unlike swift-async-algorithms, the ticks count from the consumer's first `next`, and
    /// what was gathered before a failure is emitted before it.
    ///
    /// ```swift
    /// for await batch in events.chunks(ofCount: 500, or: .repeating(every: .milliseconds(200))) { send(batch) }
    /// ```
    /// - Precondition: `count` is at least 1.
    @_disfavoredOverload  // swift-async-algorithms' operator of the same name wins when both are imported
    @inlinable public func chunks<C: Clock>(ofCount count: Int, or timer: AsyncTimer<C>) -> AsyncCollectTimedSequence<Self, C> {
        collect(count: count, orEvery: timer.interval, tolerance: timer.tolerance, clock: timer.clock)
    }

    /// Gathers the elements that arrive between two ticks of `timer` into one array; the same
    /// as `collect(every:tolerance:clock:)` with the timer's interval, tolerance and clock
    /// (swift-async-algorithms' spelling).
    ///
    /// A tick with nothing gathered emits nothing; when this sequence ends, the array of what
    /// is left comes before the end.
    ///
    /// ```swift
    /// for await batch in logLines.chunked(by: .repeating(every: .seconds(1))) { upload(batch) }
    /// ```
    @_disfavoredOverload  // swift-async-algorithms' operator of the same name wins when both are imported
    @inlinable public func chunked<C: Clock>(by timer: AsyncTimer<C>) -> AsyncCollectTimedSequence<Self, C> {
        collect(every: timer.interval, tolerance: timer.tolerance, clock: timer.clock)
    }
}

extension AsyncTimer {
    /// A timer ticking every `interval` on `clock`; the same as
    /// `AsyncTimer(every:tolerance:clock:)` (swift-async-algorithms' spelling, for
    /// `chunks(ofCount:or:)` and `chunked(by:)`).
    /// - Precondition: `interval` is more than zero.
    @_disfavoredOverload  // swift-async-algorithms' operator of the same name wins when both are imported
    @inlinable public static func repeating(every interval: C.Duration, tolerance: C.Duration? = nil, clock: C) -> AsyncTimer<C> {
        AsyncTimer(every: interval, tolerance: tolerance, clock: clock)
    }
}

extension AsyncTimer where C == ContinuousClock {
    /// A timer ticking every `interval` on the continuous clock (swift-async-algorithms'
    /// defaults to the suspending clock; ours to the continuous one, as every timed operator
    /// here does).
    /// - Precondition: `interval` is more than zero.
    @_disfavoredOverload  // swift-async-algorithms' operator of the same name wins when both are imported
    @inlinable public static func repeating(every interval: Duration, tolerance: Duration? = nil) -> AsyncTimer<ContinuousClock> {
        AsyncTimer(every: interval, tolerance: tolerance)
    }
}
