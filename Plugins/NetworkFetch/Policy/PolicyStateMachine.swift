import Switchyard

/// Decides, for each trigger, whether its work starts now (cancelling what it supersedes),
/// waits for a free slot, or is dropped. Pure: ``PolicyRunner`` drives it and owns the tasks.
struct PolicyStateMachine: Sendable {
    enum Decision: Sendable, Hashable {
        /// Start work `id`; cancel work `cancelling` first when set.
        case start(id: Int, cancelling: Int?)
        /// Every slot is taken: try again when one frees up.
        case wait
        /// Ignore the trigger.
        case drop
    }

    let policy: WorkPolicy
    /// Work that counts against the policy's limit; cancelled work leaves at once.
    private(set) var active: [Int] = []
    private var nextID = 0

    init(policy: WorkPolicy) {
        self.policy = policy
    }

    /// Whether a trigger arriving now would start work.
    var hasFreeSlot: Bool {
        switch policy {
        case .latest: return true
        case .leading, .queue, .every: return active.count < policy.concurrency
        }
    }

    /// The decision for a trigger arriving now; a `.start` is recorded as active.
    mutating func trigger() -> Decision {
        switch policy {
        case .latest:
            let superseded = active.first
            let id = allocate()
            active = [id]
            return .start(id: id, cancelling: superseded)
        case .leading:
            guard active.isEmpty else { return .drop }
            let id = allocate()
            active.append(id)
            return .start(id: id, cancelling: nil)
        case .queue, .every:
            guard active.count < policy.concurrency else { return .wait }
            let id = allocate()
            active.append(id)
            return .start(id: id, cancelling: nil)
        }
    }

    /// Records that work `id` ended (or was cancelled and ended); unknown ids are ignored.
    mutating func finished(_ id: Int) {
        active.removeAll { $0 == id }
    }

    private mutating func allocate() -> Int {
        defer { nextID += 1 }
        return nextID
    }
}
