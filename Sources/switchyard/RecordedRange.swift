import FoundationEssentials
import SwitchyardBus

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
        let from = try option("from", alias: "since", parsed)
        let to = try option("to", alias: "until", parsed)
        query.since = try from.map { name, text throws(UsageError) in try JournalQuery.Bound(text, option: name, path: parsed.path) }
        query.until = try to.map { name, text throws(UsageError) in try JournalQuery.Bound(text, option: name, path: parsed.path) }
        var empty = false
        if case .id(let from)? = query.since, case .id(let to)? = query.until, from > to { empty = true }
        if let from = query.since?.time, let to = query.until?.time, from > to { empty = true }
        if empty, let from, let to {
            throw UsageError("--\(from.name) \(from.text) is after --\(to.name) \(to.text): the range is empty", path: parsed.path)
        }
        return query
    }

    /// The option `name` or its alias (export takes `--since` and `--until` as `journal show`
    /// spells them), with the name it was given by.
    /// - Throws: ``UsageError`` when both are given.
    private static func option(_ name: String, alias: String, _ parsed: ParsedArguments) throws(UsageError) -> (name: String, text: String)? {
        switch (parsed.value(name), parsed.value(alias)) {
        case (let text?, nil): return (name, text)
        case (nil, let text?): return (alias, text)
        case (_?, _?): throw UsageError("--\(alias) is the same as --\(name): give one of them", path: parsed.path)
        case (nil, nil): return nil
        }
    }

    /// The actions of `recording` the query keeps, in order.
    static func actions(of recording: JournalRecording, _ query: JournalQuery, progress: JournalProgress? = nil) throws(JournalError) -> [BusAction] {
        try recording.actions(where: query.matches, until: query.isPastEnd, progress: progress)
    }
}

extension JournalQuery.Bound {
    /// The time of a time bound.
    var time: Date? {
        if case .time(let time) = self { return time }
        return nil
    }
}
