import Synchronization

/// The segments a ``StateHistory`` last answered in, kept decoded with the state it answered,
/// so the next question near it — a dashboard's drag moves a few hundred actions at a time — is
/// answered without reading and decoding the segment again: forward from the last answer, or
/// backward from the state before the segment (or a kept checkpoint inside it). Two are kept,
/// so a drag back and forth across a segment's end does not read each side again every time.
///
/// Bounded: ``capacity`` segments' actions (only a segment file of at most ``byteLimit`` bytes
/// is kept) and two states for each. The past does not change, so what the journal's checks
/// passed once stays right; a segment compacted away is let go at the next question.
final class HistoryRecentSegment: Sendable {
    /// The largest segment file whose actions are kept (16 MiB: a default segment of 10,000
    /// actions is a few MiB).
    static let byteLimit = 16 << 20
    /// The most segments kept: the one answered last first.
    static let capacity = 2

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

    private let kept = Mutex<[Kept]>([])
    private let reducedCount = Atomic<Int>(0)

    /// Actions reduced by every question so far, through either path: what a nearby question
    /// saves shows here.
    var reduced: Int { reducedCount.load(ordering: .relaxed) }

    func count(_ reduced: Int) {
        reducedCount.add(reduced, ordering: .relaxed)
    }

    /// Keeps `kept` for the next question, when its segment is small enough, in place of the
    /// segment answered in least recently.
    func keep(_ kept: Kept) {
        guard FileSystem.size(kept.segment.path) <= Self.byteLimit else { return }
        remember(kept)
    }

    private func remember(_ kept: Kept) {
        self.kept.withLock { list in
            list.removeAll { $0.segment == kept.segment }
            list.insert(kept, at: 0)
            if list.count > Self.capacity { list.removeLast(list.count - Self.capacity) }
        }
    }

    /// Lets go of every kept segment (a dashboard stopped asking): the next question walks the
    /// journal again.
    func letGo() {
        kept.withLock { $0.removeAll() }
    }

    /// The segments kept, the one answered in last first.
    var segments: [JournalLayout.Segment] { kept.withLock { $0.map(\.segment) } }

    /// The moment right after `target` from a kept segment, or `nil` when none holds it (then
    /// the caller walks the journal). Reduces from the nearest state before `target`: the last
    /// answer in that segment, a checkpoint inside it, or its base. Lists no directory: a kept
    /// segment whose file is gone (compacted away) is let go instead.
    func moment(at target: UInt64, model: BusStateModel, checkpoints: HistoryCheckpoints) -> StateHistory.Moment? {
        let all = self.kept.withLock { $0 }
        guard var kept = all.first(where: { target > $0.base.sequence && target <= ($0.actions.last?.id ?? 0) }) else { return nil }
        guard FileSystem.size(kept.segment.path) > 0 else {
            self.kept.withLock { list in list.removeAll { $0.segment == kept.segment } }
            return nil
        }
        if target == kept.moment.action.id {
            remember(kept)
            return kept.moment
        }
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
        remember(kept)
        return kept.moment
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
