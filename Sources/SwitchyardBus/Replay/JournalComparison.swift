/// Two recordings compared action by action: `journal diff A B`, and golden tests that replay
/// yesterday's journal through today's code.
///
/// The actions of each side that match the type pattern are paired in order (the first with
/// the first, …). Each pair is compared by type, source and payload (ids, times and causes are
/// not compared: a replay gives new ids, a new recording new times) and, with a
/// ``BusStateModel``, by the states after them: every action of a side, matched or not, is
/// reduced into that side's state, so an unmatched action's effect shows at the next pair.
/// The comparison stops at the first pair that differs.
public struct JournalComparison: Sendable, Hashable, CustomStringConvertible {
    /// The first place the recordings part.
    public struct Difference: Sendable, Hashable {
        /// The position of the pair among the matched actions, from 1.
        public var position: Int
        /// The actions of the pair; `nil` on the side whose matched actions ended first.
        public var left: BusAction?
        public var right: BusAction?
        /// How the two actions differ (`type`, `source`, `payload.…`).
        public var actionDifferences: [JSONDifference]
        /// How the states after them differ; empty without a state model.
        public var stateDifferences: [JSONDifference]
    }

    /// Pairs that were the same.
    public var matchingPairs = 0
    /// The first difference; `nil` when the recordings are the same.
    public var difference: Difference?
    /// Whether states were compared.
    public var comparedStates = false

    /// Compares `left` and `right`.
    /// - Parameters:
    ///   - pattern: Which actions are paired. Default: every action.
    ///   - model: Reduces both sides to compare their states; `nil` compares the actions only.
    /// - Throws: ``JournalError`` when either side cannot be read or is damaged.
    public static func compare(_ left: JournalRecording, _ right: JournalRecording, pattern: TypePattern = .all,
                               model: BusStateModel?) throws(JournalError) -> JournalComparison {
        var a = Side(actions: try left.actions(where: { _ in true }), model: model)
        var b = Side(actions: try right.actions(where: { _ in true }), model: model)
        var result = JournalComparison(comparedStates: model != nil)
        while true {
            let pairLeft = a.next(matching: pattern)
            let pairRight = b.next(matching: pattern)
            if pairLeft == nil, pairRight == nil { break }
            let actions = Self.differences(pairLeft, pairRight)
            let states = model == nil ? [] : JSONDifference.between(a.state, b.state)
            guard actions.isEmpty, states.isEmpty else {
                result.difference = Difference(position: result.matchingPairs + 1, left: pairLeft, right: pairRight,
                                               actionDifferences: actions, stateDifferences: states)
                return result
            }
            result.matchingPairs += 1
        }
        if model != nil {
            let states = JSONDifference.between(a.state, b.state)
            if !states.isEmpty {
                result.difference = Difference(position: result.matchingPairs + 1, left: nil, right: nil,
                                               actionDifferences: [], stateDifferences: states)
            }
        }
        return result
    }

    private static func differences(_ left: BusAction?, _ right: BusAction?) -> [JSONDifference] {
        func compared(_ action: BusAction?) -> JSON {
            guard let action else { return .null }
            return .object(["type": .string(action.type), "source": .string(action.source), "payload": action.payload])
        }
        guard left != nil, right != nil else { return [JSONDifference(path: "", left: left?.json, right: right?.json)] }
        return JSONDifference.between(compared(left), compared(right))
    }

    /// One recording being walked: its actions and the state after those walked so far.
    private struct Side {
        let actions: [BusAction]
        let model: BusStateModel?
        var state: JSON
        var index = 0

        init(actions: [BusAction], model: BusStateModel?) {
            self.actions = actions
            self.model = model
            state = model?.initialState ?? .null
        }

        /// Reduces actions up to and including the next one `pattern` matches, and returns it.
        mutating func next(matching pattern: TypePattern) -> BusAction? {
            while index < actions.count {
                let action = actions[index]
                index += 1
                model?.reduce(&state, action)
                if pattern.matches(action.type) { return action }
            }
            return nil
        }
    }

    /// `same: 120 actions, and the states after each` or the first difference, with the
    /// actions (id, type) and the differing paths.
    public var description: String {
        let what = comparedStates ? "actions, and the states after each" : "actions (states not compared: no --config)"
        guard let difference else { return "same: \(matchingPairs) \(what)" }
        func name(_ action: BusAction?, _ side: String) -> String {
            action.map { "\(side) #\($0.id) \($0.type) (source \($0.source))" } ?? "\(side) has no more actions"
        }
        var lines: [String]
        if difference.left == nil, difference.right == nil {
            lines = ["differ: the states after all \(matchingPairs) actions"]
        } else {
            lines = ["differ at action \(difference.position): \(name(difference.left, "A")), \(name(difference.right, "B"))"]
        }
        if !difference.actionDifferences.isEmpty {
            lines.append("the actions differ:")
            lines += difference.actionDifferences.map { "  \($0)" }
        }
        if !difference.stateDifferences.isEmpty {
            lines.append("the states after them differ:")
            lines += difference.stateDifferences.map { found in
                "  \(JSONDifference(path: found.path.isEmpty ? "state" : "state." + found.path, left: found.left, right: found.right))"
            }
        }
        return lines.joined(separator: "\n")
    }
}
