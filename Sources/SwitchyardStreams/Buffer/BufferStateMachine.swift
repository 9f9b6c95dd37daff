/// The pure state of `buffer(size:whenFull:)`: how an element is offered to a full buffer,
/// and how many elements were dropped.
@usableFromInline struct BufferStateMachine<Element: Sendable, Failure: Error>: Sendable {
    @usableFromInline let size: Int
    @usableFromInline let policy: OverflowPolicy
    /// Elements dropped by `.dropOldest`, `.dropNewest` or `.latest`.
    @usableFromInline var droppedCount = 0

    @inlinable init(size: Int, policy: OverflowPolicy) {
        self.size = policy == .latest ? 1 : size
        self.policy = policy
    }

    /// Whether the reader waits for room (`.suspendProducer`) rather than dropping.
    @inlinable var waitsForRoom: Bool { policy == .suspendProducer }

    /// Queues `element` in `output`, applying the policy when ``size`` elements wait there.
    @inlinable mutating func offer(_ element: Element, to output: inout OperatorOutput<Element, Failure>) {
        if output.bufferedCount >= size {
            switch policy {
            case .dropNewest:
                droppedCount += 1
                return
            case .dropOldest, .latest:
                output.dropOldest()
                droppedCount += 1
            case .suspendProducer:
                // The reader offers only when there is room.
                break
            }
        }
        output.emit(element)
    }
}
