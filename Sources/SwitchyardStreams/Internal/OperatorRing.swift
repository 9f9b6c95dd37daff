/// A growable FIFO ring buffer; popping releases the slot at once, so a buffer never keeps
/// delivered elements alive.
@usableFromInline struct OperatorRing<Element> {
    @usableFromInline var slots: ContiguousArray<Element?> = []
    @usableFromInline var head = 0
    @usableFromInline var count = 0

    @inlinable init() {}

    @inlinable var isEmpty: Bool { count == 0 }

    @inlinable mutating func append(_ element: Element) {
        if count == slots.count { grow() }
        slots[(head + count) & (slots.count - 1)] = element
        count += 1
    }

    @inlinable mutating func popFirst() -> Element? {
        guard count > 0 else { return nil }
        let element = slots[head].take()
        head = (head + 1) & (slots.count - 1)
        count -= 1
        return element
    }

    /// The first element, without removing it.
    @inlinable var first: Element? {
        count > 0 ? slots[head] : nil
    }

    @inlinable mutating func removeAll() {
        while popFirst() != nil {}
        head = 0
    }

    /// Doubles the capacity (a power of two, so positions wrap with a mask) and lays the
    /// elements out from the start.
    @inlinable mutating func grow() {
        var larger = ContiguousArray<Element?>(repeating: nil, count: Swift.max(8, slots.count * 2))
        for offset in 0..<count {
            larger[offset] = slots[(head + offset) & (slots.count - 1)].take()
        }
        slots = larger
        head = 0
    }
}

extension OperatorRing: Sendable where Element: Sendable {}
