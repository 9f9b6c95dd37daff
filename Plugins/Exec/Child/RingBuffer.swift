/// A first-in first-out buffer that reuses its storage, so a queue that fills and drains all
/// day neither shifts elements nor reallocates. Callers enforce their own bounds.
struct RingBuffer<Element> {
    private var storage: [Element?]
    private var head = 0
    private(set) var count = 0

    /// Creates an empty buffer with room for `initialCapacity` elements before it grows.
    init(initialCapacity: Int = 16) {
        storage = Array(repeating: nil, count: max(initialCapacity, 1))
    }

    /// Whether the buffer holds nothing.
    var isEmpty: Bool { count == 0 }

    /// The element `popFirst` would return, without removing it.
    var first: Element? { isEmpty ? nil : storage[head] }

    /// Adds `element` at the end, doubling the storage when full.
    mutating func append(_ element: Element) {
        if count == storage.count {
            grow()
        }
        storage[(head + count) % storage.count] = element
        count += 1
    }

    /// Removes and returns the oldest element; `nil` when empty.
    mutating func popFirst() -> Element? {
        guard count > 0 else { return nil }
        let element = storage[head]
        storage[head] = nil
        head = (head + 1) % storage.count
        count -= 1
        return element
    }

    /// Removes every element, keeping the storage.
    mutating func removeAll() {
        while popFirst() != nil {}
        head = 0
    }

    private mutating func grow() {
        var larger = [Element?](repeating: nil, count: storage.count * 2)
        for offset in 0..<count {
            larger[offset] = storage[(head + offset) % storage.count]
        }
        storage = larger
        head = 0
    }
}

extension RingBuffer: Sendable where Element: Sendable {}
