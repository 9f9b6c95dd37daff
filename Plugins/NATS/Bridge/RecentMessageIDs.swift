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
    /// The ids there is room for without growing.
    private var reserved = 0
    /// The room made at the first id.
    private static let firstStep = 1024

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
        // Room in two steps: growing by doubling rehashed the set 14 times on the way to 16,384,
        // which cost a bridge's first messages as much again as the inserts. The first step is
        // small, so a bridge that receives a few messages keeps a small table (and one that
        // receives none, none).
        if order.count == reserved, reserved < capacity {
            reserved = reserved == 0 ? min(capacity, Self.firstStep) : capacity
            members.reserveCapacity(reserved)
            order.reserveCapacity(reserved)
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
