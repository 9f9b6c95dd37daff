/// A first-in-first-out queue over one contiguous array.
///
/// Appends go to the end and takes advance a head index, so both ends are amortised O(1) without
/// the modulo arithmetic of a ring; a drained queue keeps its capacity, which lets a producer and
/// a consumer swap two of them back and forth without allocating.
@usableFromInline
struct _FIFOBuffer<Element> {
    @usableFromInline var storage: [Element]
    @usableFromInline var head: Int

    @inlinable
    init() {
        storage = []
        head = 0
    }

    @inlinable
    var count: Int { storage.count &- head }

    @inlinable
    var isEmpty: Bool { head == storage.count }

    @inlinable
    mutating func append(_ element: Element) {
        storage.append(element)
    }

    /// The first live element, if any.
    @inlinable
    var first: Element? { head < storage.count ? storage[head] : nil }

    /// The last live element, if any.
    @inlinable
    var last: Element? { head < storage.count ? storage[storage.count &- 1] : nil }

    /// The live element `offset` places after the first; `offset` must be below ``count``.
    @inlinable
    subscript(offset offset: Int) -> Element { storage[head &+ offset] }

    /// Replaces the last live element of a non-empty queue.
    @inlinable
    mutating func replaceLast(with element: Element) {
        precondition(head < storage.count, "replaceLast(with:) on an empty _FIFOBuffer")
        storage[storage.count &- 1] = element
    }

    /// Takes the first element without compacting: the caller drains the whole queue and then
    /// recycles it with ``removeAll()``, so the consumed prefix costs nothing until then.
    @inlinable
    mutating func popFirst() -> Element? {
        guard head < storage.count else { return nil }
        let element = storage[head]
        head &+= 1
        return element
    }

    /// Removes and returns the first element of a non-empty queue, compacting once the consumed
    /// prefix outweighs the live elements (a queue that is popped forever stays bounded).
    @inlinable
    @discardableResult
    mutating func removeFirst() -> Element {
        precondition(head < storage.count, "removeFirst() on an empty _FIFOBuffer")
        let element = storage[head]
        head &+= 1
        if head == storage.count {
            removeAll()
        } else if head >= 32, head &* 2 >= storage.count {
            storage.removeFirst(head)
            head = 0
        }
        return element
    }

    /// Empties the queue, keeping its capacity.
    @inlinable
    mutating func removeAll() {
        storage.removeAll(keepingCapacity: true)
        head = 0
    }

    /// Puts `earlier`'s live elements in front of this queue's.
    @usableFromInline
    mutating func prepend(_ earlier: _FIFOBuffer<Element>) {
        guard !earlier.isEmpty else { return }
        var merged: [Element] = []
        merged.reserveCapacity(earlier.count + count)
        merged.append(contentsOf: earlier.storage[earlier.head...])
        merged.append(contentsOf: storage[head...])
        storage = merged
        head = 0
    }

    /// Removes every live element matching `shouldRemove`, keeping the others in order, and
    /// returns how many it removed.
    @usableFromInline
    mutating func removeAll(where shouldRemove: (Element) -> Bool) -> Int {
        let before = count
        storage = storage[head...].filter { !shouldRemove($0) }
        head = 0
        return before - storage.count
    }
}

extension _FIFOBuffer: Sendable where Element: Sendable {}
