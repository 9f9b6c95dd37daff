import Synchronization

/// The bytes all the outboxes of one server may hold together, on top of each one's own
/// capacity, so a flood of clients that do not read costs a bounded amount of memory however
/// many of them connect.
///
/// A client that keeps up holds little: its outbox stays under ``floor``, and within the
/// floor an append is always counted and never refused, so such a client is never the one
/// dropped when the budget runs out. Past the floor, an append that would take the total
/// past ``limit`` is refused (the outbox answers ``ConnectionOutbox/AppendResult/overCapacity``,
/// and a stream is dropped). The total is therefore at most `limit` plus `floor` and one
/// line per outbox.
final class OutboxBudget: Sendable {
    /// The most bytes the outboxes hold together before those past their floor are refused.
    let limit: Int
    /// What each outbox may hold whatever the total.
    let floor: Int
    private let total = Atomic<Int>(0)

    /// A budget of `limit` bytes in all, each outbox holding up to `floor` regardless.
    init(limit: Int, floor: Int) {
        self.limit = limit
        self.floor = floor
    }

    /// The bytes counted now.
    var held: Int { total.load(ordering: .relaxed) }

    /// Counts `count` more bytes for an outbox already holding `pending`; `false` (nothing
    /// counted) when it is past its floor and the total would pass the limit.
    func take(_ count: Int, pending: Int) -> Bool {
        guard pending + count > floor else {
            total.wrappingAdd(count, ordering: .relaxed)
            return true
        }
        var current = total.load(ordering: .relaxed)
        while current + count <= limit {
            let (exchanged, original) = total.compareExchange(expected: current, desired: current + count, ordering: .relaxed)
            if exchanged { return true }
            current = original
        }
        return false
    }

    /// Gives back `count` bytes sent or discarded.
    func give(_ count: Int) {
        if count > 0 { total.wrappingSubtract(count, ordering: .relaxed) }
    }
}
