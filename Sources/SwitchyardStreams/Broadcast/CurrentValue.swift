/// A value plus its updates, the role of Combine's `CurrentValueSubject`.
///
/// A subscriber receives the current value first, then every later value. By default each
/// subscriber keeps only the newest value it has not taken (`.latest`), so a slow consumer skips
/// to the latest state instead of building a backlog. Dropping the last reference to a
/// `CurrentValue` finishes its subscriptions.
public final class CurrentValue<Element: Sendable>: Sendable, AsyncSequence {
    public typealias Failure = Never

    @usableFromInline let storage: _BroadcastStorage<Element>

    /// Creates a current value holding `initial`.
    public init(_ initial: Element) {
        storage = _BroadcastStorage(current: initial)
    }

    deinit {
        storage.finish()
    }

    /// The current value; safe to read from any isolation.
    public var value: Element {
        storage.state.withLock { state in
            guard let current = state.current else {
                preconditionFailure("a CurrentValue always holds a value")
            }
            return current
        }
    }

    /// Replaces the value and sends it to every subscriber.
    ///
    /// After ``finish()`` the value still changes, but nobody is notified.
    public func send(_ newValue: Element) {
        storage.withLockThenResume { state, wakeups in
            state.current = newValue
            state.send(newValue, wakeups: &wakeups)
        }
    }

    /// Changes the value in place and atomically (no other change interleaves), then sends the
    /// new value to every subscriber; returns what `body` returns.
    ///
    /// `body` runs under the value's lock: it must not touch this `CurrentValue`. If `body`
    /// throws, the error propagates, changes it made before throwing stay, and subscribers are
    /// notified of the value as it is.
    @discardableResult
    public func update<R>(_ body: (inout Element) throws -> R) rethrows -> R {
        var result: R?
        var wakeups = _Wakeups()
        defer { wakeups.resumeAll() }
        try storage.state.withLock { state in
            guard state.current != nil else {
                preconditionFailure("a CurrentValue always holds a value")
            }
            defer { state.send(state.current.unsafelyUnwrapped, wakeups: &wakeups) }
            result = try body(&state.current!)
        }
        return result.unsafelyUnwrapped
    }

    /// Registers a subscriber that receives the current value first, then every later value;
    /// registering and reading the current value are one atomic step (no gap, no duplicate).
    ///
    /// - Parameters:
    ///   - bufferSize: How many values the subscriber may have waiting; at least 1 (a smaller
    ///     value stops the program with a message). Default 1. Ignored for `.latest`.
    ///   - overflow: What a full buffer does with an arriving value. Default `.latest`: a slow
    ///     consumer sees the newest value, never a backlog.
    public func subscribe(bufferSize: Int = 1, overflow: OverflowPolicy = .latest) -> Broadcast<Element>.Subscription {
        storage.subscribe(bufferSize: bufferSize, overflow: overflow, replayingCurrent: true)
    }

    /// Ends every subscription once it has drained what it buffered, and wakes every waiting
    /// iterator; idempotent. Later subscribers end at once.
    public func finish() {
        storage.finish()
    }

    /// Subscribes with the default buffer size and policy and returns the subscription's
    /// iterator.
    public func makeAsyncIterator() -> Broadcast<Element>.Subscription.AsyncIterator {
        subscribe().makeAsyncIterator()
    }
}
