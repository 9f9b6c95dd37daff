import FoundationEssentials

/// Feeds recorded actions into a bus one at a time, in order, at a ``ReplayPace`` on a clock,
/// and keeps cause chains whole: a replayed action's `cause` names the replayed copy of its
/// recorded cause (`null` when that was not replayed).
///
/// Each action is handed to `dispatch`, which returns the id the bus gave it once it is reduced
/// (``Bus/dispatchRecorded(_:)``), so the next one waits for it: actions are replayed strictly
/// in recorded order. The feed is a plain value with no I/O of its own, so its timing is tested
/// on a manual clock.
public struct ReplayFeed: Sendable {
    /// What a feed did.
    public struct Outcome: Sendable, Hashable {
        /// Actions the bus took.
        public var replayed = 0
        /// The ids the bus gave the first and last of them.
        public var firstID: UInt64?
        public var lastID: UInt64?
        /// Whether the feed ended before the last action: the bus stopped taking actions, the
        /// step prompt ended or the task was cancelled.
        public var stoppedEarly = false
    }

    /// The actions to replay, in recorded order.
    public let actions: [BusAction]
    public let pace: ReplayPace

    public init(actions: [BusAction], pace: ReplayPace) {
        self.actions = actions
        self.pace = pace
    }

    /// Replays every action.
    ///
    /// - Parameters:
    ///   - clock: The clock the pace runs on; action N is due at `start + offset(N)`, where
    ///     `start` is the clock's instant when this is called.
    ///   - step: Called before each action is dispatched when given (`--step`); the feed waits
    ///     for it and ends when it returns `false`. The pace is not applied between steps.
    ///   - dispatch: Hands an action to the bus; returns its new id once reduced, `nil` when
    ///     the bus did not take it (then the feed ends).
    public func run<C: Clock>(
        on clock: C,
        step: (@Sendable (BusAction) async -> Bool)? = nil,
        dispatch: (BusAction) async -> UInt64?
    ) async -> Outcome where C.Duration == Duration {
        var outcome = Outcome()
        guard let origin = actions.first?.time else { return outcome }
        let start = clock.now
        var renumbered: [UInt64: UInt64] = [:]
        for action in actions {
            if Task.isCancelled {
                outcome.stoppedEarly = true
                break
            }
            if let step {
                guard await step(action) else {
                    outcome.stoppedEarly = true
                    break
                }
            } else if pace.speed != nil {
                do {
                    try await clock.sleep(until: start.advanced(by: pace.offset(of: action.time, origin: origin)), tolerance: nil)
                } catch {
                    outcome.stoppedEarly = true
                    break
                }
            }
            var replayed = action
            replayed.cause = action.cause.flatMap { renumbered[$0] }
            guard let id = await dispatch(replayed) else {
                outcome.stoppedEarly = true
                break
            }
            renumbered[action.id] = id
            outcome.replayed += 1
            outcome.firstID = outcome.firstID ?? id
            outcome.lastID = id
        }
        return outcome
    }
}
