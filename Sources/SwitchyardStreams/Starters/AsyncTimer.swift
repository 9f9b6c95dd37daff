/// Ticks every `interval` on a clock (Combine's `Timer.publish(every:on:in:)`,
/// swift-async-algorithms' `AsyncTimerSequence`): each element is the tick's instant.
///
/// - **Emits** the instants `start + interval`, `start + 2 × interval`, … where `start` is the
///   clock's time at the first `next`; each `next` sleeps until the next tick. A consumer that
///   comes back late gets the latest tick that passed at once, and the ticks it missed are
///   skipped, so ticks never pile up.
/// - **Finishes** when the consumer's task is cancelled (the sleep ends); it never fails.
/// - **Buffers** nothing and starts no task: it sleeps in the consumer's `next`.
///
/// ```swift
/// for await _ in timer(every: .seconds(30)) { await refresh() }
/// ```
public struct AsyncTimer<C: Clock>: AsyncSequence, Sendable {
    /// The instant of each tick.
    public typealias Element = C.Instant
    /// It never fails.
    public typealias Failure = Never

    @usableFromInline let interval: C.Duration
    @usableFromInline let tolerance: C.Duration?
    @usableFromInline let clock: C

    /// A timer ticking every `interval` on `clock`.
    /// - Parameters:
    ///   - interval: The time between ticks; more than zero.
    ///   - tolerance: Passed to `clock.sleep(until:tolerance:)`; defaults to `nil`.
    ///   - clock: The clock that ticks; tests pass a `ManualClock`.
    /// - Precondition: `interval` is more than zero.
    @inlinable public init(every interval: C.Duration, tolerance: C.Duration? = nil, clock: C) {
        precondition(interval > .zero, "timer(every:) needs an interval > 0, got \(interval)")
        self.interval = interval
        self.tolerance = tolerance
        self.clock = clock
    }

    /// Makes an iterator whose ticks count from its first `next`.
    @inlinable public func makeAsyncIterator() -> Iterator {
        Iterator(timer: self)
    }

    /// Sleeps until each tick.
    public struct Iterator: AsyncIteratorProtocol, ConsumerPacedIterator {
        @usableFromInline let timer: AsyncTimer
        @usableFromInline var last: C.Instant?
        @usableFromInline var isFinished = false

        @inlinable init(timer: AsyncTimer) {
            self.timer = timer
        }

        /// The next tick's instant, once reached; `nil` once the task is cancelled.
        @inlinable public mutating func next(isolation actor: isolated (any Actor)?) async -> C.Instant? {
            guard !isFinished else { return nil }
            let now = timer.clock.now
            var tick = (last ?? now).advanced(by: timer.interval)
            while tick.advanced(by: timer.interval) <= now { tick = tick.advanced(by: timer.interval) }
            do {
                try await timer.clock.sleep(until: tick, tolerance: timer.tolerance)
            } catch {
                isFinished = true
                return nil
            }
            last = tick
            return tick
        }
    }
}

extension AsyncTimer where C == ContinuousClock {
    /// A timer ticking every `interval` on the continuous clock.
    /// - Precondition: `interval` is more than zero.
    @inlinable public init(every interval: Duration, tolerance: Duration? = nil) {
        self.init(every: interval, tolerance: tolerance, clock: ContinuousClock())
    }
}

/// A timer ticking every `interval` on `clock`; the same as `AsyncTimer(every:tolerance:clock:)`.
///
/// ```swift
/// for await _ in timer(every: .seconds(30)) { await refresh() }
/// ```
/// - Precondition: `interval` is more than zero.
@inlinable public func timer<C: Clock>(every interval: C.Duration, tolerance: C.Duration? = nil, clock: C) -> AsyncTimer<C> {
    AsyncTimer(every: interval, tolerance: tolerance, clock: clock)
}

/// A timer ticking every `interval` on the continuous clock.
/// - Precondition: `interval` is more than zero.
@inlinable public func timer(every interval: Duration, tolerance: Duration? = nil) -> AsyncTimer<ContinuousClock> {
    AsyncTimer(every: interval, tolerance: tolerance)
}

@available(*, unavailable)
extension AsyncTimer.Iterator: Sendable {}
