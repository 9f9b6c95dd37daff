/// The last message ids the bridge dispatched, to drop a message delivered twice.
///
/// JetStream delivers again what it did not see acknowledged (an acknowledgement lost with
/// a connection), so an at-least-once bridge sees duplicates; remembering a bounded number
/// of ids turns most of them back into exactly-once. The oldest id is forgotten first.
struct RecentMessageIDs: Sendable {
    /// How many ids are remembered.
    let capacity: Int
    private var order: [String] = []
    private var next = 0
    private var members: Set<String> = []

    /// Creates an empty memory of `capacity` ids.
    init(capacity: Int = 16_384) {
        self.capacity = max(capacity, 1)
    }

    /// Whether `id` is remembered.
    func contains(_ id: String) -> Bool {
        members.contains(id)
    }

    /// Remembers `id`; returns `false` when it already was.
    @discardableResult
    mutating func insert(_ id: String) -> Bool {
        // Room for every id at the first: growing the set doubled and rehashed it 14 times on
        // the way to 16,384, which cost a bridge's first messages as much again as the inserts.
        // Made on first use, so a bridge that never receives holds no table.
        if order.isEmpty, members.isEmpty {
            members = Set(minimumCapacity: capacity)
            order.reserveCapacity(capacity)
        }
        // One lookup: this runs for every message received.
        guard members.insert(id).inserted else { return false }
        if order.count < capacity {
            order.append(id)
        } else {
            members.remove(order[next])
            order[next] = id
            next = (next + 1) % capacity
        }
        return true
    }

    /// Forgets `id`, for a message that was not dispatched after all.
    mutating func remove(_ id: String) {
        members.remove(id)
    }
}
