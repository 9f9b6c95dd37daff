/// The IDs a test helper gives its waits, and the cancellations that arrive between a wait
/// taking its ID and registering under its lock: a cancellation handler can run first, and
/// without this the wait would register afterwards and never be resumed.
///
/// Kept inside the helper's locked state; one copy of what the timeline, sources, recorders
/// and the test bus each wrote.
package struct PendingWaits {
    package init() {}
    private var lastID: UInt64 = 0
    /// IDs handed out but not registered yet, and whether their wait was cancelled meanwhile.
    private var unregistered: [UInt64: Bool] = [:]

    /// A fresh ID for something that is not a wait (an iterator, say): the same sequence.
    package mutating func uniqueID() -> UInt64 {
        lastID += 1
        return lastID
    }

    /// A fresh ID for a wait that will register later.
    package mutating func makeID() -> UInt64 {
        let id = uniqueID()
        unregistered[id] = false
        return id
    }

    /// Marks `id` registered; `true` when its wait was cancelled before that.
    package mutating func register(_ id: UInt64) -> Bool {
        unregistered.removeValue(forKey: id) ?? false
    }

    /// Remembers a cancellation that arrived before `id` registered; nothing once it has.
    package mutating func cancelEarly(_ id: UInt64) {
        if unregistered[id] != nil { unregistered[id] = true }
    }
}
