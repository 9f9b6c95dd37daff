import Foundation
import Switchyard

/// The `--from`, `--to` and `--types` options of `journal export|import` and `replay`: which
/// recorded actions to take.
enum RecordedRange {
    /// The query the options describe.
    /// - Throws: ``UsageError`` for a bound or pattern that does not parse, or `--from` after `--to`.
    static func query(_ parsed: ParsedArguments) throws(UsageError) -> JournalQuery {
        var query = JournalQuery()
        if let text = parsed.value("types") {
            guard let pattern = TypePattern(text) else { throw UsageError("--types: " + ClientCommand.patternProblem(text), path: parsed.path) }
            query.pattern = pattern
        }
        query.since = try parsed.value("from").map { text throws(UsageError) in try JournalQuery.Bound(text, option: "from", path: parsed.path) }
        query.until = try parsed.value("to").map { text throws(UsageError) in try JournalQuery.Bound(text, option: "to", path: parsed.path) }
        var empty = false
        if case .id(let from)? = query.since, case .id(let to)? = query.until, from > to { empty = true }
        if let from = query.since?.time, let to = query.until?.time, from > to { empty = true }
        if empty {
            throw UsageError("--from \(parsed.value("from") ?? "") is after --to \(parsed.value("to") ?? ""): the range is empty", path: parsed.path)
        }
        return query
    }

    /// The actions of `recording` the query keeps, in order.
    static func actions(of recording: JournalRecording, _ query: JournalQuery) throws(JournalError) -> [BusAction] {
        try recording.actions(where: query.matches, until: query.isPastEnd)
    }
}

extension JournalQuery.Bound {
    /// The time of a time bound.
    var time: Date? {
        if case .time(let time) = self { return time }
        return nil
    }
}
