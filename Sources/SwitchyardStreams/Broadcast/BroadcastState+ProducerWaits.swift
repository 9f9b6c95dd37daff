/// Producers suspended in `deliver`: each wait counts its elements still pending in some
/// subscriber's queue, and resumes its producer when the count reaches zero.
extension _BroadcastState {
    /// A suspended `deliver`: how many of its pending elements are not yet buffered.
    @usableFromInline
    struct ProducerWait: Sendable {
        @usableFromInline var remaining: Int
        @usableFromInline var continuation: UnsafeContinuation<Void, Never>?

        @inlinable
        init() {
            remaining = 0
            continuation = nil
        }
    }

    @inlinable
    mutating func beginWait() -> Int {
        let id = nextWaitID
        nextWaitID += 1
        waits[id] = ProducerWait()
        return id
    }

    /// Stores a suspended producer's continuation; returns true when it must resume at once
    /// (everything it waited for is buffered, or the wait was cancelled meanwhile).
    @inlinable
    mutating func parkProducer(wait id: Int, _ continuation: UnsafeContinuation<Void, Never>) -> Bool {
        guard let wait = waits[id], wait.remaining > 0 else {
            waits[id] = nil
            return true
        }
        waits[id]?.continuation = continuation
        return false
    }

    /// Abandons a wait: its pending elements are dropped (and counted) for every subscriber.
    @usableFromInline
    mutating func cancelWait(_ id: Int, wakeups: inout _Wakeups) {
        guard let wait = waits.removeValue(forKey: id) else { return }
        if wait.remaining > 0 {
            for index in subscribers.indices where !subscribers[index].pending.isEmpty {
                let removed = subscribers[index].pending.removeAll { $0.wait == id }
                if removed > 0 {
                    subscribers[index].status.countDropped(removed)
                }
            }
        }
        if let continuation = wait.continuation {
            wakeups.append(continuation)
        }
    }

    /// Records that one pending element of wait `id` left the wait (buffered or discarded).
    @inlinable
    mutating func settlePending(of id: Int, wakeups: inout _Wakeups) {
        guard var wait = waits[id] else { return }
        wait.remaining -= 1
        if wait.remaining == 0, let continuation = wait.continuation {
            waits[id] = nil
            wakeups.append(continuation)
        } else {
            waits[id] = wait
        }
    }
}
