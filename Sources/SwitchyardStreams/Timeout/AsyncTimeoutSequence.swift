extension AsyncSequence where Self: Sendable, Element: Sendable {
    /// Ends the sequence when this sequence stays silent for longer than `interval`.
    ///
    /// - **Emits** this sequence's elements unchanged.
    /// - **Finishes** when this sequence finishes, or when it has produced nothing for
    ///   `interval` (measured on `clock` from the first `next`, and again from each element)
    ///   and `customError` is `nil`.
    /// - **Fails** with this sequence's failure, or with `customError()` when it times out;
    ///   this sequence is then cancelled.
    /// - **Buffers** up to 64 elements the consumer has not taken; time spent waiting for a
    ///   slow consumer does not count as silence.
    ///
    /// Making the iterator subscribes to this sequence. The operator owns two tasks, running
    /// from the first `next`: one reads this sequence, one sleeps on `clock` until the current
    /// deadline. Both are cancelled when the consumer's task is cancelled or its iterator is
    /// released.
    ///
    /// ```swift
    /// let replies = socketReplies.timeout(.seconds(5), customError: { .noReply })
    /// ```
    ///
    /// - Parameters:
    ///   - interval: The longest silence allowed; not negative.
    ///   - tolerance: Passed to `clock.sleep(until:tolerance:)`; defaults to `nil`.
    ///   - clock: The clock that measures silence; defaults to `ContinuousClock()`.
    ///   - customError: Makes the failure to end with on a timeout; defaults to `nil`, which
    ///     finishes instead (as Combine's `timeout` does).
    /// - Precondition: `interval` is not negative.
    @inlinable public func timeout<C: Clock>(
        _ interval: C.Duration,
        tolerance: C.Duration? = nil,
        clock: C = ContinuousClock(),
        customError: (@Sendable () -> Failure)? = nil
    ) -> AsyncTimeoutSequence<Self, C> {
        let timing = OperatorTiming("timeout(_:)", interval: interval, tolerance: tolerance, clock: clock)
        return AsyncTimeoutSequence(base: self, timing: timing, customError: customError)
    }
}

extension AsyncSequence where Self: Sendable, Element: Sendable, Failure == Never {
    /// Like `timeout(_:tolerance:clock:customError:)` for a sequence that cannot fail: on a
    /// timeout it fails with `failure()`, so the result's failure type is `NewFailure`.
    ///
    /// ```swift
    /// let fixes = gpsFixes.timeout(.seconds(10), failure: { GPSError.silent })
    /// ```
    /// - Precondition: `interval` is not negative.
    @inlinable public func timeout<C: Clock, NewFailure: Error>(
        _ interval: C.Duration,
        tolerance: C.Duration? = nil,
        clock: C = ContinuousClock(),
        failure: @escaping @Sendable () -> NewFailure
    ) -> AsyncTimeoutSequence<AsyncMapFailureSequence<Self, NewFailure>, C> {
        setFailureType(to: NewFailure.self).timeout(interval, tolerance: tolerance, clock: clock, customError: failure)
    }
}

/// A base sequence that ends after too long a silence. Made by
/// `timeout(_:tolerance:clock:customError:)`.
public struct AsyncTimeoutSequence<Base: AsyncSequence & Sendable, C: Clock>: AsyncSequence, Sendable, DrivenOperator
where Base.Element: Sendable {
    /// Takes the base's elements; `nil` once the base finished, the interval passed without a
    /// `customError`, or the task was cancelled; throws the base's failure or `customError`'s.
    public typealias Iterator = AsyncOperatorIterator<Self, Element, Failure>
    /// The base's element type.
    public typealias Element = Base.Element
    /// The base's failure type, unchanged.
    public typealias Failure = Base.Failure
    @usableFromInline typealias Machine = TimeoutStateMachine<C.Instant>
    @usableFromInline typealias Driver = OperatorDriver<Machine, Element, Failure>

    @usableFromInline let base: Base
    @usableFromInline let timing: OperatorTiming<C>
    @usableFromInline let customError: (@Sendable () -> Failure)?

    @inlinable init(base: Base, timing: OperatorTiming<C>, customError: (@Sendable () -> Failure)?) {
        self.base = base
        self.timing = timing
        self.customError = customError
    }

    /// Makes an iterator, subscribing to the base at once (by making its iterator); the base
    /// is read, and silence measured, from the first `next` on.
    @inlinable public func makeAsyncIterator() -> Iterator {
        let (clock, customError) = (timing.clock, self.customError)
        let driver = Driver(machine: Machine(interval: timing.interval))
        driver.read(base) { iterator in
            let now = clock.now
            driver.update { machine, _ in machine.waitingForUpstream(since: now) }
            await Self.consume(&iterator, into: driver, clock: clock)
        }
        driver.spawnAfterStart {
            await driver.runDeadlines(self.timing, emits: false) { machine, output, now in
                guard machine.deadlineReached(at: now) else { return }
                if let customError { output.fail(customError()) } else { output.finish() }
            }
        }
        return Iterator(driver)
    }

    @inlinable static func consume(_ iterator: inout Base.AsyncIterator, into driver: Driver, clock: C) async {
        let end = await drain(&iterator) { element in
            let running = await driver.updateThenWaitForRoom { machine, output in
                machine.upstreamAnswered()
                output.emit(element)
            }
            let now = clock.now
            driver.update { machine, _ in machine.waitingForUpstream(since: now) }
            return running
        }
        driver.update { machine, output in
            machine.upstreamAnswered()
            switch end {
            case .success: output.finish()
            case .failure(let failure): output.fail(failure)
            }
        }
    }
}
