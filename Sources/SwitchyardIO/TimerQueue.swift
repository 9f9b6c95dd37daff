/// The identity of a scheduled timer, for cancelling it; never reused within a loop.
package struct TimerID: Sendable, Hashable {
    let value: UInt64
}

/// Deadlines and what to do at each, ordered by deadline then by the order they were
/// scheduled: a pure state machine with no clock of its own, so both the real loop and the
/// embedded one run timers through it.
///
/// A binary heap with lazy cancellation: cancelling removes the payload at once and leaves the
/// heap entry to be skipped, and the heap is rebuilt when skipped entries outnumber live ones.
package struct TimerQueue<Payload> {
    private struct Entry {
        var deadline: ContinuousClock.Instant
        var id: UInt64

        func precedes(_ other: Entry) -> Bool {
            deadline < other.deadline || (deadline == other.deadline && id < other.id)
        }
    }

    private var heap: [Entry] = []
    private var payloads: [UInt64: Payload] = [:]
    private var nextID: UInt64 = 0

    /// Creates an empty queue.
    package init() {}

    /// How many timers are scheduled and not cancelled.
    package var count: Int { payloads.count }

    /// Schedules `payload` for `deadline`.
    package mutating func schedule(at deadline: ContinuousClock.Instant, _ payload: Payload) -> TimerID {
        nextID += 1
        payloads[nextID] = payload
        push(Entry(deadline: deadline, id: nextID))
        return TimerID(value: nextID)
    }

    /// Cancels a timer; returns its payload, or `nil` when it already fired or was cancelled.
    @discardableResult
    package mutating func cancel(_ id: TimerID) -> Payload? {
        let payload = payloads.removeValue(forKey: id.value)
        if heap.count > 64, heap.count > 2 * payloads.count { rebuild() }
        return payload
    }

    /// The earliest live deadline; `nil` when nothing is scheduled.
    package mutating func nextDeadline() -> ContinuousClock.Instant? {
        dropCancelled()
        return heap.first?.deadline
    }

    /// Removes and returns the earliest timer due at `now`, or `nil` when none is.
    package mutating func popDue(at now: ContinuousClock.Instant) -> (id: TimerID, payload: Payload)? {
        dropCancelled()
        guard let first = heap.first, first.deadline <= now else { return nil }
        pop()
        guard let payload = payloads.removeValue(forKey: first.id) else { return nil }
        return (TimerID(value: first.id), payload)
    }

    private mutating func dropCancelled() {
        while let first = heap.first, payloads[first.id] == nil { pop() }
    }

    private mutating func rebuild() {
        heap.removeAll { payloads[$0.id] == nil }
        for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
    }

    private mutating func push(_ entry: Entry) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func pop() {
        heap.swapAt(0, heap.count - 1)
        heap.removeLast()
        siftDown(0)
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { return }
            var smallest = left
            if left + 1 < heap.count, heap[left + 1].precedes(heap[left]) { smallest = left + 1 }
            guard heap[smallest].precedes(heap[parent]) else { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
