import Synchronization

/// Tells dispatchers which sequence number their action got, once it is reduced.
///
/// A dispatcher that needs the number (the control socket replies with it) registers a
/// completion and puts the ticket it gets, a number from a range no sequence number reaches,
/// in the action's `id`. The bus's stamp hook, which sees each action with its sequence number
/// as it is accepted, files the completion under that number; the delivery hook, which runs
/// once a batch is reduced, journaled and published, calls the completions of the batch.
/// No task waits per action, and actions without a ticket cost one comparison.
final class DispatchTickets: Sendable {
    /// Tickets start here; sequence numbers never get this far.
    static let base: UInt64 = 1 << 63

    typealias Completion = @Sendable (DispatchOutcome) -> Void

    private struct State: Sendable {
        var next = DispatchTickets.base
        var waiting: [UInt64: Completion] = [:]
        var admitted: [UInt64: Completion] = [:]
    }

    private let state = Mutex(State())
    private let admittedCount = Atomic<Int>(0)

    /// A new ticket whose completion is called with the action's sequence number once it is
    /// reduced and journaled, or with why not (see ``refuse(_:)`` and ``fail(_:reason:)``).
    func issue(_ completion: @escaping Completion) -> UInt64 {
        state.withLock { state in
            state.next &+= 1
            state.waiting[state.next] = completion
            return state.next
        }
    }

    /// Called from the stamp hook: the ticketed action was accepted as `sequence`.
    func admit(ticket: UInt64, sequence: UInt64) {
        state.withLock { state in
            guard let completion = state.waiting.removeValue(forKey: ticket) else { return }
            state.admitted[sequence] = completion
            admittedCount.add(1, ordering: .relaxed)
        }
    }

    /// Called from the delivery hook with a reduced batch: completes its ticketed actions.
    func complete(_ actions: [BusAction]) {
        guard admittedCount.load(ordering: .relaxed) > 0 else { return }
        let due: [(UInt64, Completion)] = state.withLock { state in
            var due: [(UInt64, Completion)] = []
            for action in actions {
                if let completion = state.admitted.removeValue(forKey: action.id) { due.append((action.id, completion)) }
            }
            admittedCount.subtract(due.count, ordering: .relaxed)
            return due
        }
        for (sequence, completion) in due { completion(.dispatched(sequence)) }
    }

    /// Called from the journal hook with a batch the journal could not write: its ticketed
    /// actions are not acknowledged; their completions get ``DispatchOutcome/journalFailed(_:)``.
    func fail(_ actions: [BusAction], reason: String) {
        guard admittedCount.load(ordering: .relaxed) > 0 else { return }
        let due: [Completion] = state.withLock { state in
            let due = actions.compactMap { state.admitted.removeValue(forKey: $0.id) }
            admittedCount.subtract(due.count, ordering: .relaxed)
            return due
        }
        for completion in due { completion(.journalFailed(reason)) }
    }

    /// The ticketed action was not accepted (the bus is closed): its completion gets
    /// ``DispatchOutcome/stopping``.
    func refuse(_ ticket: UInt64) {
        let completion = state.withLock { $0.waiting.removeValue(forKey: ticket) }
        completion?(.stopping)
    }
}

/// What became of a dispatched action.
enum DispatchOutcome: Sendable, Hashable {
    /// Reduced and journaled (durable as the fsync policy promises) as this sequence number.
    case dispatched(UInt64)
    /// Not taken: the bus is stopping.
    case stopping
    /// Reduced but not journaled: the journal failed (the reason names the file and errno);
    /// never acknowledged, and the bus stops.
    case journalFailed(String)

    /// The sequence number, when the action was dispatched.
    var sequence: UInt64? {
        if case .dispatched(let sequence) = self { return sequence }
        return nil
    }
}
