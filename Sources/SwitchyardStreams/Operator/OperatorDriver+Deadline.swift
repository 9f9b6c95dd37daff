/// The state machine of a time-based operator (`debounce`, `throttle`, `timeout`): the next
/// moment at which it has something to do, if any.
@usableFromInline protocol DeadlineMachine: Sendable {
    associatedtype Instant: InstantProtocol
    /// When the machine next needs the clock; `nil` while nothing is due.
    var deadline: Instant? { get }
}

extension OperatorDriver where Machine: DeadlineMachine {
    /// The timer task of a time-based operator: waits until the machine has a deadline, sleeps
    /// on `timing`'s clock until it, then runs `reached` with the time as one atomic step, and
    /// again, until the operator stops or the sleep is cancelled.
    ///
    /// - Parameter emits: Whether `reached` may emit; then the timer waits while the buffer is
    ///   full, as every producer does.
    @inlinable func runDeadlines<C: Clock>(
        _ timing: OperatorTiming<C>,
        emits: Bool,
        _ reached: @escaping @Sendable (inout Machine, inout Output, C.Instant) -> Void
    ) async where C.Instant == Machine.Instant {
        while await wait(until: { $0.deadline != nil }) {
            guard let deadline = update({ machine, _ in machine.deadline }) else { continue }
            do {
                try await timing.clock.sleep(until: deadline, tolerance: timing.tolerance)
            } catch {
                return
            }
            let now = timing.clock.now
            if emits {
                guard await updateThenWaitForRoom({ reached(&$0, &$1, now) }) else { return }
            } else {
                update { reached(&$0, &$1, now) }
            }
        }
    }
}
