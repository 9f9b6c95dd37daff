import Synchronization

/// Tells a dispatcher which sequence number its action got.
///
/// `Store.dispatch` returns once the action is reduced but not the number the bus stamped on
/// it. A dispatcher that needs the number (the control socket replies with it) puts a ticket,
/// a number from a range no sequence number reaches, in the action's `id`; the bus's stamp
/// hook, which sees the action and its sequence number as it is accepted, records the pair.
/// Actions without a ticket cost one comparison.
final class DispatchTickets: Sendable {
    /// Tickets start here; sequence numbers never get this far.
    static let base: UInt64 = 1 << 63

    private let state = Mutex((next: DispatchTickets.base, sequences: [UInt64: UInt64]()))

    /// A new ticket, registered until ``redeem(_:)``.
    func issue() -> UInt64 {
        state.withLock { state in
            state.next &+= 1
            state.sequences[state.next] = 0
            return state.next
        }
    }

    /// Called from the stamp hook: records the sequence number of a ticketed action.
    func record(ticket: UInt64, sequence: UInt64) {
        state.withLock { state in
            if state.sequences[ticket] != nil { state.sequences[ticket] = sequence }
        }
    }

    /// The sequence number the ticketed action got, or `nil` when it was never accepted;
    /// forgets the ticket.
    func redeem(_ ticket: UInt64) -> UInt64? {
        state.withLock { state in
            let sequence = state.sequences.removeValue(forKey: ticket)
            return sequence == 0 ? nil : sequence
        }
    }
}
