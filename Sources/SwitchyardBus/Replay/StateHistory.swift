import FoundationEssentials

/// The bus state as it was at any moment its journal holds, rebuilt off the bus's path: the
/// nearest snapshot before the moment, then the journaled actions after it reduced through the
/// bus's own reducer (``BusStateModel``), as a restart does (``JournalRestore``).
///
/// A reader of its own: it reads the data directory's files (safe while a bus appends, like
/// `journal show`) and never touches the running bus's store. Memory stays bounded: one
/// segment's bytes (at most 64 MiB, one snapshot interval by default) and one state at a time,
/// plus the last two answers' segments, decoded, with up to 32 states met in each, for the next
/// nearby question (at most 16 MiB of file each: ``HistoryRecentSegment``).
/// Every read goes through the journal's checks (``JournalWalk``), so damage is reported, never
/// answered in part.
public struct StateHistory: Sendable {
    /// The state right after one action.
    public struct Moment: Sendable {
        /// The action the moment follows.
        public var action: BusAction
        /// The bus state right after it.
        public var state: JSON
        /// What the journal tells of each plugin then (``PluginActivity``); `nil` where the
        /// question did not need it (``why(path:at:)``).
        public var plugins: PluginActivity?
    }

    /// The data directory read.
    public let dataDirectory: String
    let layout: JournalLayout
    let model: BusStateModel
    /// States met on the way, shared by every copy of this history (``HistoryCheckpoints``).
    let checkpoints: HistoryCheckpoints
    /// The segments of the last answers, decoded, shared by every copy (``HistoryRecentSegment``).
    let recent: HistoryRecentSegment

    /// The history of the journal in `dataDirectory`, reduced with `model` (the reducer and
    /// initial state of the bus that wrote it). It keeps the state after every 10,000th action
    /// it reduces, at most 128 of them, so later questions start near their moment.
    public init(dataDirectory: String, model: BusStateModel) {
        self.init(dataDirectory: dataDirectory, model: model, checkpoints: HistoryCheckpoints())
    }

    init(dataDirectory: String, model: BusStateModel, checkpoints: HistoryCheckpoints, recent: HistoryRecentSegment = HistoryRecentSegment()) {
        self.dataDirectory = dataDirectory
        self.recent = recent
        layout = JournalLayout(dataDirectory: dataDirectory)
        self.model = model
        self.checkpoints = checkpoints
    }

    /// The state right after the action `point` names.
    /// - Throws: ``HistoryError``: `not-found` when the journal holds no such action (an id
    ///   beyond its end or compacted away, a time before its first action);
    ///   `journal-damaged` when it cannot be read.
    public func moment(at point: HistoryPoint) throws(HistoryError) -> Moment {
        // A drag's next point is an id in a kept segment: answered without listing the journal.
        if case .id(let id) = point, let moment = recent.moment(at: id, model: model, checkpoints: checkpoints) { return moment }
        let files = try Files(layout, checkpoints)
        let target = try files.resolve(point)
        if case .time = point, let moment = recent.moment(at: target, model: model, checkpoints: checkpoints) { return moment }
        let start = files.start(before: target, model)
        guard let holding = files.segments.last(where: { $0.firstSequence <= target }) else { throw files.missing(target) }
        // The state before the target's segment (or the start inside it), for a later question
        // back inside the segment.
        let baseSequence = max(start.sequence, max(holding.firstSequence, 1) - 1)
        var marks = recent.marks()
        var previous = start.sequence
        var segmentActions: [BusAction] = []
        var reached: BusAction?
        var reducedCount = 0
        defer { recent.count(reducedCount) }
        let reduced = try files.reduce(from: start, through: target, seeing: { action in
            if action.id >= holding.firstSequence { segmentActions.append(action) }
        }) { action, reduction in
            // The state handed here is the one right after the previous action, folded whole.
            if previous >= baseSequence { marks.pass(previous, reduction) }
            previous = action.id
            model.reduce(&reduction.state, action)
            reducedCount += 1
            if action.id == target { reached = action }
        }
        guard let reached else { throw files.missing(target) }
        let moment = Moment(action: reached, state: reduced.state, plugins: reduced.activity)
        if marks.base != nil { recent.keep(.init(segment: holding, actions: segmentActions, marks: marks, moment: moment)) }
        return moment
    }

    /// The paths whose values differ between the states right after `from` and after `to`,
    /// depth first with object keys sorted, at most `limit` of them.
    /// - Throws: ``HistoryError`` as ``moment(at:)`` does, for either point.
    public func difference(from: HistoryPoint, to: HistoryPoint, limit: Int = 1000) throws(HistoryError) -> [JSONDifference] {
        JSONDifference.between(try moment(at: from).state, try moment(at: to).state, limit: limit)
    }

    /// Lets go of the decoded segments kept for nearby questions (the checkpoints stay): for an
    /// owner whose questions stopped, so the memory can go back to the system.
    package func letGoOfKeptSegments() {
        recent.letGo()
    }

    /// The newest action the journal holds, for "now" without a running bus.
    /// - Throws: ``HistoryError`` (`not-found`) for an empty journal.
    public func latestID() throws(HistoryError) -> UInt64 {
        let files = try Files(layout, checkpoints)
        guard let last = try files.lastSequence() else { throw .notFound("the journal in \(dataDirectory) holds no action yet") }
        return last
    }
}

extension StateHistory {
    /// Where a reduction starts: after `sequence`, from `state` and the plugins' activity.
    struct Start {
        var sequence: UInt64
        var reduction: Reduction
        var chain: UInt32?
    }

    /// A reduction's progress: the state, and what the journal told of the plugins (folded by
    /// ``Files/reduce(from:through:seeing:_:)`` after each step).
    struct Reduction: Sendable {
        var state: JSON
        var activity: PluginActivity

        /// What follows reducing `action` into ``state``: its plugin's activity folded, then
        /// the whole offered to `checkpoints` as the state right after it.
        mutating func stepped(_ action: BusAction, offeringTo checkpoints: HistoryCheckpoints) {
            activity.fold(action)
            checkpoints.offer(action.id, self)
        }
    }

    /// The journal's files as listed once per question, and the reads over them.
    struct Files {
        let layout: JournalLayout
        let segments: [JournalLayout.Segment]
        let snapshots: [JournalLayout.Snapshot]
        let checkpoints: HistoryCheckpoints

        init(_ layout: JournalLayout, _ checkpoints: HistoryCheckpoints) throws(HistoryError) {
            self.layout = layout
            self.checkpoints = checkpoints
            do {
                (segments, snapshots) = try layout.list()
            } catch {
                throw .journal(error)
            }
        }

        /// The starting point for `target`: the newest kept state or snapshot before it that
        /// reads back, else the initial state. A snapshot the bus removes meanwhile is passed
        /// over: an older start reduces to the same state.
        func start(before target: UInt64, _ model: BusStateModel) -> Start {
            starts(before: target, model, all: false)[0]
        }

        /// The kept states and snapshots before `target`, newest first, then the initial
        /// state: the starts a scan backwards tries in turn (only the first unless `all`).
        func starts(before target: UInt64, _ model: BusStateModel, all: Bool = true) -> [Start] {
            var found = checkpoints.before(target).map { Start(sequence: $0.sequence, reduction: $0.reduction, chain: nil) }
            let newestKept = found.first?.sequence ?? 0
            for snapshot in snapshots.reversed() where snapshot.sequence < target && (all || snapshot.sequence > newestKept) {
                guard let read = try? JournalSnapshot.read(snapshot) else { continue }
                let reduction = Reduction(state: model.adopt(read.state), activity: PluginActivity(since: read.sequence))
                found.append(Start(sequence: read.sequence, reduction: reduction, chain: read.chain))
                if !all { break }
            }
            found.sort { $0.sequence > $1.sequence }
            return found + [Start(sequence: 0, reduction: Reduction(state: model.initialState, activity: PluginActivity(since: 0)), chain: nil)]
        }

        /// Reduces the actions after `start` through `target` with `step` (which reduces each
        /// into the state it is handed; the activity is folded after it), reading only the
        /// segments that hold them; `seeing` is handed every action read, before or after them.
        /// Returns the reduction after the last.
        /// - Throws: ``HistoryError`` (`not-found`) when the segments that held the actions
        ///   after `start` were compacted away; `journal-damaged` for damage.
        func reduce(from start: Start, through target: UInt64, seeing: (BusAction) -> Void = { _ in },
                    _ step: (BusAction, inout Reduction) -> Void) throws(HistoryError) -> Reduction {
            guard let first = segments.lastIndex(where: { $0.firstSequence <= start.sequence + 1 }) else {
                throw .notFound("the actions after \(start.sequence) are no longer in the journal (it starts at \(segments.first?.firstSequence ?? 0), after a compaction)")
            }
            let end = segments.firstIndex { $0.firstSequence > target } ?? segments.count
            var walker = JournalWalk(layout: layout, segments: Array(segments[..<end]), snapshots: [:], mark: nil) { segment throws(JournalError) in
                try FileSystem.read(segment.path)
            }
            walker.requireMark = false
            var reduction = start.reduction
            let base = start.sequence
            do {
                _ = try walker.walk(from: first, start: base > 0 ? JournalWalk.Start(sequence: base, chain: start.chain) : nil) { action throws(JournalError) in
                    seeing(action)
                    guard action.id > base, action.id <= target else { return }
                    step(action, &reduction)
                    reduction.stepped(action, offeringTo: checkpoints)
                }
            } catch {
                throw .journal(error)
            }
            return reduction
        }

        /// The id `point` names: itself, or the last action stamped at or before the time.
        func resolve(_ point: HistoryPoint) throws(HistoryError) -> UInt64 {
            switch point {
            case .id(let id): return id
            case .time(let time): return try lastAction(atOrBefore: time)
            }
        }

        /// Finds the segment by its first action's time (a journal is in time order), then the
        /// action in it.
        private func lastAction(atOrBefore time: Date) throws(HistoryError) -> UInt64 {
            var low = 0
            var high = segments.count
            // The number of segments whose first action is at or before `time`.
            while low < high {
                let middle = (low + high) / 2
                if let first = try actions(in: middle).first, first.time <= time { low = middle + 1 } else { high = middle }
            }
            guard low > 0 else {
                var first: BusAction?
                for index in segments.indices where first == nil { first = try actions(in: index).first }
                throw .notFound(first.map { "\(Timestamp.iso8601(time)) is before the journal's first action (\($0.id) at \(Timestamp.iso8601($0.time)))" }
                                ?? "the journal holds no action yet")
            }
            let candidates = try actions(in: low - 1)
            return candidates.last { $0.time <= time }?.id ?? candidates[0].id
        }

        /// The actions of segment `index`, whole lines only; its links to other segments are
        /// checked by the reduction that follows.
        func actions(in index: Int) throws(HistoryError) -> [BusAction] {
            var actions: [BusAction] = []
            do {
                let segment = segments[index]
                let scanner = SegmentScanner(segment: segment, isNewest: index == segments.count - 1)
                _ = try scanner.scan(try FileSystem.read(segment.path)) { actions.append($0) }
            } catch {
                throw .journal(error)
            }
            return actions
        }

        /// The last journaled action's id; `nil` for an empty journal.
        func lastSequence() throws(HistoryError) -> UInt64? {
            for index in segments.indices.reversed() {
                if let last = try actions(in: index).last { return last.id }
            }
            return nil
        }

        /// Why `target` was not reached: beyond the end, or not among the journal's actions.
        func missing(_ target: UInt64) -> HistoryError {
            if let last = try? lastSequence(), target > last {
                return .notFound("no action \(target): the journal ends at action \(last)")
            }
            return .notFound("no action \(target) in the journal")
        }
    }
}
