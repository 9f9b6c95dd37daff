extension StateHistory {
    /// Why a state path has its value at a moment: the action that last changed it, the value
    /// before and after that action, and the chain of actions that led to it.
    public struct Explanation: Sendable {
        /// The dotted state path asked about.
        public var path: String
        /// The action the moment follows.
        public var moment: BusAction
        /// The value at the path then.
        public var value: JSON
        /// The last action at or before the moment that changed the value; `nil` when none did
        /// (the value is the slice's initial one).
        public var changedBy: BusAction?
        /// The value before ``changedBy``; `nil` where the path had no value.
        public var before: JSON?
        /// The value right after ``changedBy``.
        public var after: JSON?
        /// ``changedBy``'s cause, that action's cause, and so on, nearest first, ending with an
        /// action from outside (no cause), at most ``maximumCauses`` long.
        public var causes: [BusAction] = []
        /// A cause id the journal no longer holds (compacted away), where the chain stops.
        public var missingCause: UInt64?

        /// The explanation as one JSON object: `path`, `at` (the moment's action), `value`,
        /// `changedBy`, `before`, `after`, `causes` (actions), and `missingCause` when set.
        public var json: JSON {
            var object: [String: JSON] = ["path": .string(path), "at": moment.json, "value": value,
                                          "changedBy": changedBy?.json ?? .null, "causes": .array(causes.map(\.json))]
            if changedBy != nil {
                object["before"] = before ?? .null
                object["after"] = after ?? .null
            }
            if let missingCause { object["missingCause"] = .integer(Int64(clamping: missingCause)) }
            return .object(object)
        }
    }

    /// The longest chain of causes followed: a loop of plugins answering each other must not
    /// make an answer without bound.
    public static let maximumCauses = 64

    /// Why `path` has its value right after the action `point` names (the newest action when
    /// `nil`): scans forward from the nearest snapshot before the moment, and from older
    /// starting points only while no action in the later window changed the value.
    /// - Throws: ``HistoryError``: `not-found` when the path has no value then or the moment
    ///   is not in the journal; `journal-damaged` when it cannot be read.
    public func why(path: String, at point: HistoryPoint? = nil) throws(HistoryError) -> Explanation {
        let files = try Files(layout, checkpoints)
        let target: UInt64
        if let point { target = try files.resolve(point) } else { target = try latestID() }
        let steps = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var moment: Moment?
        var change: (action: BusAction, before: JSON?, after: JSON?)?
        var end = target
        for start in files.starts(before: target, model) where start.sequence < end {
            _ = try files.reduce(from: start, through: end) { action, reduction in
                let before = path.isEmpty ? reduction.state : reduction.state.value(atSteps: steps)
                model.reduce(&reduction.state, action)
                let after = path.isEmpty ? reduction.state : reduction.state.value(atSteps: steps)
                if before != after { change = (action, before, after) }
                if action.id == target { moment = Moment(action: action, state: reduction.state) }
            }
            guard moment != nil else { throw files.missing(target) }
            if change != nil { break }
            end = start.sequence
        }
        guard let moment else { throw files.missing(target) }
        guard let value = path.isEmpty ? moment.state : moment.state.value(atSteps: steps) else {
            throw .notFound("the state had no value at \(JSON.string(path)) after action \(target)")
        }
        var explanation = Explanation(path: path, moment: moment.action, value: value, changedBy: change?.action,
                                      before: change?.before, after: change?.after)
        try followCauses(of: change?.action, in: files, into: &explanation)
        return explanation
    }

    /// Follows `cause` ids back from `action` to an action from outside.
    private func followCauses(of action: BusAction?, in files: Files, into explanation: inout Explanation) throws(HistoryError) {
        var next = action?.cause
        var segment: (index: Int, actions: [BusAction])?
        while let id = next, explanation.causes.count < Self.maximumCauses {
            guard let index = files.segments.lastIndex(where: { $0.firstSequence <= id }) else {
                explanation.missingCause = id
                return
            }
            if segment?.index != index { segment = (index, try files.actions(in: index)) }
            guard let cause = segment?.actions.first(where: { $0.id == id }) else {
                explanation.missingCause = id
                return
            }
            explanation.causes.append(cause)
            next = cause.cause
        }
    }
}
