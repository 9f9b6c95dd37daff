/// How work triggered by a stream of elements overlaps: the policies of the store's effects,
/// the bus's ``_Concurrency/AsyncSequence/forEach(policy:_:)`` and network-fetch.
public enum WorkPolicy: Sendable, Hashable {
    /// A new element cancels the work in flight and starts its own (switch to latest).
    case latest
    /// Every element gets its work, at most `maxConcurrent` at a time; further elements wait
    /// (in their buffer) for a free slot.
    case every(maxConcurrent: Int)
    /// An element arriving while work is in flight is ignored.
    case leading
    /// Every element gets its work, one after another, in order.
    case queue

    /// `.every(maxConcurrent: 64)`, the default of the ``Middleware`` closure and sequence
    /// forms: each action's work starts at once, as TCA's effects and redux-saga's `takeEvery`
    /// do, so an action that starts no work finishes at once instead of waiting behind slow
    /// work. The bound keeps the tasks in flight bounded; while 64 pieces of work are in flight,
    /// the next wait for a slot.
    public static let concurrent = WorkPolicy.every(maxConcurrent: 64)

    /// The most pieces of work this policy runs at once in a group (`every` at least 1).
    package var concurrency: Int {
        switch self {
        case .latest, .leading, .queue: return 1
        case .every(let maxConcurrent): return max(maxConcurrent, 1)
        }
    }
}

extension AsyncSequence where Self: Sendable, Element: Sendable, Failure == Never {
    /// Runs `work` for the elements of this sequence under `policy`.
    ///
    /// `every` and `queue` stop reading the sequence while every slot is taken, so waiting
    /// elements stay in the sequence's own buffer; `latest` starts new work only once the work
    /// it cancelled has returned, so superseded work never overlaps it. Returns when the sequence
    /// ends (after in-flight work finishes) or when the calling task is cancelled (after
    /// cancelling in-flight work and waiting for it), so no work outlives the call.
    ///
    /// ```swift
    /// await context.actions.forEach(policy: .latest) { action in
    ///     let value = try? await fetch(action.payload)
    ///     await context.dispatch("places/loaded", payload: value ?? .null, cause: action.id)
    /// }
    /// ```
    public func forEach(policy: WorkPolicy, _ work: @escaping @Sendable (Element) async -> Void) async {
        await PolicyRunner(policy: policy).run(self, work: work)
    }
}
