/// How the sender of one queued action learns what became of it.
///
/// Each inbox entry carries its own completion, so the store tells each sender directly, in
/// the drainer, with no table to look it up in.
@usableFromInline
package enum StoreCompletion: Sendable {
    /// A ``Store/dispatch(_:)`` caller, resumed once subscribers got the action, or at once when
    /// it was not taken or its batch could not be made durable.
    case delivered(UnsafeContinuation<Void, Never>)
    /// A sender that does not wait (the control socket): told the sequence number as soon as
    /// the action is durable and its state published, or why not.
    case outcome(@Sendable (DispatchOutcome) -> Void)

    /// The action's batch is durable and its state published.
    @inlinable
    package func published(sequence: UInt64) {
        if case .outcome(let report) = self { report(.dispatched(sequence)) }
    }

    /// Subscribers got the action.
    @inlinable
    package func delivered() {
        if case .delivered(let continuation) = self { continuation.resume() }
    }

    /// The store is closed, or the waiting sender was cancelled: the action was not taken.
    @inlinable
    package func refused() {
        switch self {
        case .delivered(let continuation): continuation.resume()
        case .outcome(let report): report(.stopping)
        }
    }

    /// The action was reduced but its batch could not be made durable, for `reason`.
    @inlinable
    package func failed(_ reason: String) {
        switch self {
        case .delivered(let continuation): continuation.resume()
        case .outcome(let report): report(.journalFailed(reason))
        }
    }
}

/// What became of a dispatched action.
@usableFromInline
package enum DispatchOutcome: Sendable, Hashable {
    /// Reduced and journaled (durable as the fsync policy promises) as this sequence number.
    case dispatched(UInt64)
    /// Not taken: the bus is stopping.
    case stopping
    /// Reduced but not journaled: the journal failed (the reason names the file and errno);
    /// never acknowledged, and the bus stops.
    case journalFailed(String)

    /// The sequence number, when the action was dispatched.
    package var sequence: UInt64? {
        if case .dispatched(let sequence) = self { return sequence }
        return nil
    }
}
