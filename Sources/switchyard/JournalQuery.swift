import FoundationEssentials
import SwitchyardBus

/// Which journaled actions `journal show` and `tail -n` print: a type pattern, a window of ids
/// or times (both bounds inclusive), and optionally only the last N of those.
struct JournalQuery: Sendable {
    /// A bound of the window: an action id or a time.
    enum Bound: Sendable, Equatable {
        case id(UInt64)
        case time(Date)

        /// `42`, or a time as ``TimeExpression`` reads it (`2026-11-22T09:30:00Z`, `2026-11-28`,
        /// `yesterday`, `"1 hour ago"`), relative to `now` and local times in `zone`.
        /// - Throws: ``UsageError`` naming `option` for anything else.
        init(_ text: String, option: String, path: [String], now: Date = Date(), zone: LocalZone = .system) throws(UsageError) {
            if let id = UInt64(text) {
                self = .id(id)
            } else if let date = TimeExpression(now: now, zone: zone).parse(text) {
                self = .time(date)
            } else {
                throw UsageError("--\(option) expects an action id or a time: \(TimeExpression.forms); got \"\(text)\"", path: path)
            }
        }
    }

    var pattern: TypePattern = .all
    var since: Bound?
    var until: Bound?
    /// Only the last this many matching actions; `nil` for all.
    var last: Int?

    /// Whether `action` is inside the window and matches the pattern.
    func matches(_ action: BusAction) -> Bool {
        guard pattern.matches(action.type) else { return false }
        switch since {
        case .id(let id)? where action.id < id: return false
        case .time(let time)? where action.time < time: return false
        default: break
        }
        return !isPastEnd(action)
    }

    /// Whether `action` and every later one are after the window's end.
    func isPastEnd(_ action: BusAction) -> Bool {
        switch until {
        case .id(let id)?: action.id > id
        case .time(let time)?: action.time > time
        case nil: false
        }
    }

    /// Keeps the matching actions of a stream in order, only the last ``last`` of them when it
    /// is set: a ring that never holds more than that many.
    struct Selection {
        private(set) var kept: [BusAction] = []
        private var start = 0
        let limit: Int?

        init(limit: Int?) {
            self.limit = limit
        }

        /// Adds an action; with a limit it replaces the oldest kept one when full.
        mutating func add(_ action: BusAction) {
            guard let limit else { return kept.append(action) }
            guard limit > 0 else { return }
            if kept.count < limit { return kept.append(action) }
            kept[start] = action
            start = (start + 1) % limit
        }

        /// The kept actions, oldest first.
        var actions: [BusAction] { Array(kept[start...] + kept[..<start]) }
    }
}
