import Synchronization

/// The segments a ``StateHistory`` last answered in, kept decoded with states met inside them,
/// so the next question near it — a dashboard's drag moves a few hundred actions at a time, back
/// and forth — is answered without reading and decoding the segment again, and by reducing
/// only a few hundred actions: forward from the last answer, or from the nearest kept state
/// (``Marks``) before the question. Two segments are kept, so a drag back and forth across a
/// segment's end does not read each side again every time.
///
/// Bounded: ``capacity`` segments' actions (only a segment file of at most ``byteLimit`` bytes
/// is kept), and for each at most ``Marks/limit`` states plus the last answer. The past does not
/// change, so what the journal's checks passed once stays right; a segment compacted away is let
/// go at the next question.
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
        /// States inside the segment, the first right after the walk's start (before the
        /// segment's first action, or the start of the walk inside it).
        var marks: Marks
        /// The last answer.
        var moment: StateHistory.Moment
    }

    /// States (with the plugins' activity) a walk through one segment passed, evenly spaced:
    /// the first after ``base``, then one every ``spacing`` actions. When more than ``limit``
    /// would be kept, every other one goes and the spacing doubles, so a question back inside
    /// a segment of any length reduces at most ``spacing`` actions and the memory stays at
    /// ``limit`` states.
    struct Marks: Sendable {
        /// The most states kept for one segment.
        let limit: Int
        /// Actions between two kept states (it doubles as they are thinned).
        private(set) var spacing: UInt64
        /// The kept states, oldest first.
        private(set) var states: [(sequence: UInt64, reduction: StateHistory.Reduction)] = []

        /// Marks starting at `spacing` actions apart (at least 1), at most `limit` (at least 2).
        init(spacing: UInt64, limit: Int) {
            self.spacing = max(1, spacing)
            self.limit = max(2, limit)
        }

        /// The sequence the first state follows; `nil` before any.
        var base: UInt64? { states.first?.sequence }

        /// Keeps `reduction`, the state right after action `sequence`, when it is the first or
        /// lies `spacing` or more past the newest kept. Passes are made in id order.
        mutating func pass(_ sequence: UInt64, _ reduction: StateHistory.Reduction) {
            if let last = states.last, sequence < last.sequence + spacing { return }
            states.append((sequence, reduction))
            guard states.count > limit else { return }
            states = states.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
            spacing *= 2
        }

        /// The newest kept state before `target`.
        func before(_ target: UInt64) -> (sequence: UInt64, reduction: StateHistory.Reduction)? {
            var low = 0
            var high = states.count
            while low < high {
                let middle = (low + high) / 2
                if states[middle].sequence < target { low = middle + 1 } else { high = middle }
            }
            return low > 0 ? states[low - 1] : nil
        }
    }

    /// Actions between the first states kept in a segment (``Marks``); 256 by default, so a step
    /// back costs about what a step of a drag forward does.
    let markSpacing: UInt64
    /// The most states kept in one segment; 32 by default.
    let markLimit: Int
    private let kept = Mutex<[Kept]>([])
    private let reducedCount = Atomic<Int>(0)

    init(markSpacing: UInt64 = 256, markLimit: Int = 32) {
        self.markSpacing = markSpacing
        self.markLimit = markLimit
    }

    /// Empty marks for a segment about to be walked.
    func marks() -> Marks {
        Marks(spacing: markSpacing, limit: markLimit)
    }

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
    /// answer in that segment, a state kept inside it, or a checkpoint. Lists no directory: a
    /// kept segment whose file is gone (compacted away) is let go instead.
    func moment(at target: UInt64, model: BusStateModel, checkpoints: HistoryCheckpoints) -> StateHistory.Moment? {
        let all = self.kept.withLock { $0 }
        guard var kept = all.first(where: { target > ($0.marks.base ?? .max) && target <= ($0.actions.last?.id ?? 0) }),
              var start = kept.marks.before(target)
        else { return nil }
        guard FileSystem.size(kept.segment.path) > 0 else {
            self.kept.withLock { list in list.removeAll { $0.segment == kept.segment } }
            return nil
        }
        if target == kept.moment.action.id {
            remember(kept)
            return kept.moment
        }
        if let checkpoint = checkpoints.newest(before: target), checkpoint.sequence > start.sequence {
            start = checkpoint
        }
        if kept.moment.action.id < target, kept.moment.action.id > start.sequence, let plugins = kept.moment.plugins {
            start = (kept.moment.action.id, StateHistory.Reduction(state: kept.moment.state, activity: plugins))
        }
        var reduction = start.reduction
        var index = kept.actions.partitionIndex { $0.id > start.sequence }
        var reached: BusAction?
        let first = index
        while index < kept.actions.count, kept.actions[index].id <= target {
            let action = kept.actions[index]
            model.reduce(&reduction.state, action)
            reduction.stepped(action, offeringTo: checkpoints)
            kept.marks.pass(action.id, reduction)
            reached = action
            index += 1
        }
        count(index - first)
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
