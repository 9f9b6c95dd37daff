import Synchronization

/// The segment a ``StateHistory`` last answered in, kept decoded with the state it answered, so
/// the next question near it — a dashboard's drag moves a few hundred actions at a time — is
/// answered without reading and decoding the segment again: forward from the last answer, or
/// backward from the state before the segment (or a kept checkpoint inside it).
///
/// Bounded: one segment's actions (only a segment file of at most ``byteLimit`` bytes is kept)
/// and two states. The past does not change, so what the journal's checks passed once stays
/// right; a segment compacted away is let go at the next question.
final class HistoryRecentSegment: Sendable {
    /// The largest segment file whose actions are kept (16 MiB: a default segment of 10,000
    /// actions is a few MiB).
    static let byteLimit = 16 << 20

    struct Kept: Sendable {
        var segment: JournalLayout.Segment
        /// The segment's actions in id order, every one the walk read.
        var actions: [BusAction]
        /// The state (and plugins' activity) right after `base`: before the segment's first
        /// action (or the start of the walk inside it).
        var base: (sequence: UInt64, reduction: StateHistory.Reduction)
        /// The last answer.
        var moment: StateHistory.Moment
    }

    private let kept = Mutex<Kept?>(nil)
    private let reducedCount = Atomic<Int>(0)

    /// Actions reduced by every question so far, through either path: what a nearby question
    /// saves shows here.
    var reduced: Int { reducedCount.load(ordering: .relaxed) }

    func count(_ reduced: Int) {
        reducedCount.add(reduced, ordering: .relaxed)
    }

    /// Keeps `kept` for the next question, when its segment is small enough.
    func keep(_ kept: Kept) {
        guard FileSystem.size(kept.segment.path) <= Self.byteLimit else { return }
        self.kept.withLock { $0 = kept }
    }

    /// The moment right after `target` from the kept segment, or `nil` when it does not hold
    /// it (then the caller walks the journal). Reduces from the nearest state before `target`:
    /// the last answer, a checkpoint inside the segment, or the segment's base.
    func moment(at target: UInt64, segments: [JournalLayout.Segment], model: BusStateModel,
                checkpoints: HistoryCheckpoints) -> StateHistory.Moment? {
        guard var kept = kept.withLock({ $0 }) else { return nil }
        guard segments.contains(kept.segment) else {
            self.kept.withLock { $0 = nil }
            return nil
        }
        guard target > kept.base.sequence, let last = kept.actions.last, target <= last.id else { return nil }
        if target == kept.moment.action.id { return kept.moment }
        var start = kept.base
        if let checkpoint = checkpoints.before(target).first, checkpoint.sequence > start.sequence {
            start = checkpoint
        }
        if kept.moment.action.id < target, kept.moment.action.id > start.sequence, let plugins = kept.moment.plugins {
            start = (kept.moment.action.id, StateHistory.Reduction(state: kept.moment.state, activity: plugins))
        }
        var reduction = start.reduction
        var index = kept.actions.partitionIndex { $0.id > start.sequence }
        var reached: BusAction?
        while index < kept.actions.count, kept.actions[index].id <= target {
            let action = kept.actions[index]
            model.reduce(&reduction.state, action)
            reduction.activity.fold(action)
            checkpoints.offer(action.id, reduction)
            reached = action
            index += 1
            count(1)
        }
        guard let reached, reached.id == target else { return nil }
        kept.moment = StateHistory.Moment(action: reached, state: reduction.state, plugins: reduction.activity)
        let answered = kept
        self.kept.withLock { $0 = answered }
        return answered.moment
    }
}

extension Array where Element == BusAction {
    /// The index of the first action for which `isAfter` holds (actions are in id order, so it
    /// holds for all after it).
    fileprivate func partitionIndex(_ isAfter: (BusAction) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if isAfter(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
