/// How far publishing from the journal got: the last action read (published or passed over),
/// the published ones JetStream has not yet settled, and the durable cursor — the last id up
/// to which every action is settled (stored, a duplicate, or refused for good and reported).
/// A state machine without I/O; the bridge saves ``confirmed`` when ``due(now:)`` says so.
///
/// Acknowledgements may arrive out of order (a window of publishes is outstanding); the cursor
/// only moves over an unbroken run of settled ids, so a restart never skips an action that
/// was not stored.
struct ForwardProgress: Sendable {
    /// The last id read from the journal or the live stream.
    private(set) var examined: UInt64
    /// The cursor last written to disk.
    private(set) var saved: UInt64
    private var outstanding: [UInt64] = []
    private var head = 0
    private var settledAhead: Set<UInt64> = []
    private var savedAt: Duration?
    /// How often the cursor is written at most.
    let saveInterval: Duration

    /// Progress starting after `cursor`, as read from disk.
    init(cursor: UInt64, saveInterval: Duration) {
        examined = cursor
        saved = cursor
        self.saveInterval = saveInterval
    }

    /// Published actions not yet settled.
    var outstandingCount: Int { outstanding.count - head - settledAhead.count }

    /// Every action through this id is settled.
    var confirmed: UInt64 {
        head < outstanding.count ? outstanding[head] - 1 : examined
    }

    /// The action `id` was published; ids only grow.
    mutating func sent(_ id: UInt64) {
        guard id > examined else { return }
        outstanding.append(id)
        examined = id
    }

    /// Actions through `id` were read and need no publishing (another type, or gone).
    mutating func passed(through id: UInt64) {
        examined = max(examined, id)
    }

    /// JetStream settled the action `id`. An id settled before, or never published (passed
    /// over), changes nothing: counting it would move the cursor past an unsettled action.
    mutating func settled(_ id: UInt64) {
        guard head < outstanding.count, id >= outstanding[head] else { return }
        if id != outstanding[head] {
            if isOutstanding(id) { settledAhead.insert(id) }
            return
        }
        head += 1
        while head < outstanding.count, settledAhead.remove(outstanding[head]) != nil { head += 1 }
        if head == outstanding.count {
            outstanding.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 4096, head * 2 > outstanding.count {
            outstanding.removeSubrange(0..<head)
            head = 0
        }
    }

    /// Whether `id` was published and is not settled at the head (the outstanding ids are
    /// sorted: a binary search).
    private func isOutstanding(_ id: UInt64) -> Bool {
        var low = head
        var high = outstanding.count
        while low < high {
            let middle = (low + high) / 2
            if outstanding[middle] < id { low = middle + 1 } else { high = middle }
        }
        return low < outstanding.count && outstanding[low] == id
    }

    /// The cursor to write now, if it moved and the last write is ``saveInterval`` old.
    func due(now: Duration) -> UInt64? {
        guard confirmed > saved else { return nil }
        if let savedAt, now - savedAt < saveInterval { return nil }
        return confirmed
    }

    /// The cursor `id` is on disk.
    mutating func didSave(_ id: UInt64, now: Duration) {
        saved = max(saved, id)
        savedAt = now
    }
}
