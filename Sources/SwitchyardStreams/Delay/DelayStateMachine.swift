/// The pure state of `delay(for:)`: the elements read and when each falls due, then the
/// base's end and when it falls due.
///
/// Every element and the end fall due `interval` after they arrived, so their spacing is kept;
/// the timer emits everything due when it wakes.
@usableFromInline struct DelayStateMachine<Element: Sendable, Failure: Error, Instant: InstantProtocol>: DeadlineMachine {
    @usableFromInline typealias Output = OperatorOutput<Element, Failure>

    /// Elements read ahead of their time at most; then reading waits.
    @inlinable static var pendingLimit: Int { 64 }

    @usableFromInline let interval: Instant.Duration
    @usableFromInline var pending = OperatorRing<(element: Element, due: Instant)>()
    @usableFromInline var end: (result: Result<Void, Failure>, due: Instant)?

    @inlinable init(interval: Instant.Duration) {
        self.interval = interval
    }

    /// When the first element, or else the end, falls due.
    @inlinable var deadline: Instant? {
        pending.first?.due ?? end?.due
    }

    /// Whether reading waits until the timer has emitted some.
    @inlinable var isFull: Bool {
        pending.count >= Self.pendingLimit
    }

    @inlinable mutating func received(_ element: Element, at now: Instant) {
        pending.append((element, now.advanced(by: interval)))
    }

    @inlinable mutating func upstreamEnded(_ result: Result<Void, Failure>, at now: Instant) {
        end = (result, now.advanced(by: interval))
    }

    /// Emits every element due at `now`, then the end once it is due and nothing is pending.
    @inlinable mutating func deadlineReached(at now: Instant, output: inout Output) {
        while let first = pending.first, first.due <= now {
            _ = pending.popFirst()
            output.emit(first.element)
        }
        guard pending.isEmpty, let end, end.due <= now else { return }
        self.end = nil
        switch end.result {
        case .success: output.finish()
        case .failure(let failure): output.fail(failure)
        }
    }
}
