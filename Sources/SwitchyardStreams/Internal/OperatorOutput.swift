/// What an operator has produced for its consumer and not yet delivered: elements in order,
/// then at most one end. Nothing can be emitted after the end.
@usableFromInline struct OperatorOutput<Element, Failure: Error> {
    /// What the consumer gets next.
    @usableFromInline enum Delivery {
        case element(Element)
        case end(Result<Void, Failure>)
    }

    @usableFromInline var buffer = OperatorRing<Element>()
    @usableFromInline var end: Result<Void, Failure>?
    @usableFromInline var endDelivered = false

    @inlinable init() {}

    /// Whether the end has been set (elements may still wait before it).
    @inlinable var isEnded: Bool { end != nil }

    @inlinable var bufferedCount: Int { buffer.count }

    /// Queues `element`; ignored once the end is set.
    @inlinable mutating func emit(_ element: Element) {
        guard end == nil else { return }
        buffer.append(element)
    }

    /// Ends the output after what is queued; ignored when it has already ended.
    @inlinable mutating func finish() {
        if end == nil { end = .success(()) }
    }

    /// Fails the output after what is queued; ignored when it has already ended.
    @inlinable mutating func fail(_ failure: Failure) {
        if end == nil { end = .failure(failure) }
    }

    /// Removes the oldest queued element to make room for a newer one.
    /// - Returns: Whether there was one to remove.
    @discardableResult
    @inlinable mutating func dropOldest() -> Bool {
        buffer.popFirst() != nil
    }

    /// Drops what is queued and ends quietly: the consumer left.
    @inlinable mutating func discard() {
        buffer.removeAll()
        end = .success(())
        endDelivered = true
    }

    /// Takes the next delivery: a queued element, else the end (a failure only once), else
    /// `nil` when the consumer has to wait.
    @inlinable mutating func take() -> Delivery? {
        if let element = buffer.popFirst() { return .element(element) }
        guard let end else { return nil }
        if endDelivered { return .end(.success(())) }
        endDelivered = true
        return .end(end)
    }
}

extension OperatorOutput: Sendable where Element: Sendable {}

extension OperatorOutput.Delivery {
    /// The delivery as `next` returns it: an element, `nil` for the end, or the failure.
    @inlinable var result: Result<Element?, Failure> {
        switch self {
        case .element(let element): .success(element)
        case .end(let end): end.map { nil }
        }
    }
}
