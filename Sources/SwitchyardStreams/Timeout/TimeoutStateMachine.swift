/// The pure state of `timeout`: when the upstream's silence becomes too long.
///
/// The clock runs only while the operator waits for the upstream; time spent waiting for a
/// slow consumer does not count against the upstream.
@usableFromInline struct TimeoutStateMachine<Instant: InstantProtocol>: Sendable {
    @usableFromInline let interval: Instant.Duration
    /// When the upstream's silence times out; `nil` while the operator does not wait for it.
    @usableFromInline var deadline: Instant?
    @usableFromInline var timedOut = false

    @inlinable init(interval: Instant.Duration) {
        self.interval = interval
    }

    /// The operator asks the upstream for an element at `now`.
    @inlinable mutating func waitingForUpstream(since now: Instant) {
        guard !timedOut else { return }
        deadline = now.advanced(by: interval)
    }

    /// The upstream produced an element or ended in time.
    @inlinable mutating func upstreamAnswered() {
        deadline = nil
    }

    /// Whether the upstream has now timed out; `true` at most once.
    @inlinable mutating func deadlineReached(at now: Instant) -> Bool {
        guard let deadline, now >= deadline, !timedOut else { return false }
        self.deadline = nil
        timedOut = true
        return true
    }
}

extension TimeoutStateMachine: DeadlineMachine {}
