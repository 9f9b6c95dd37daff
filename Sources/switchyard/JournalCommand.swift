import FoundationEssentials
import Glibc
import SwitchyardBus

/// `switchyard journal show | verify | compact`: the journal of a bus's data directory.
struct JournalCommand: Sendable {
    let subcommand: String
    let options: ClientOptions
    let query: JournalQuery
    let follow: Bool
    let text: Bool
    let repair: Bool

    /// The command a parsed `journal …` line asks for.
    /// - Throws: ``UsageError`` for a pattern, bound or count that does not parse.
    init(_ parsed: ParsedArguments, options: ClientOptions) throws(UsageError) {
        subcommand = parsed.path.last ?? "show"
        self.options = options
        var query = JournalQuery()
        if let text = parsed[positional: "PATTERN"] {
            guard let pattern = TypePattern(text) else { throw UsageError(ClientCommand.patternProblem(text), path: parsed.path) }
            query.pattern = pattern
        }
        query.since = try parsed.value("since").map { text throws(UsageError) in try JournalQuery.Bound(text, option: "since", path: parsed.path) }
        query.until = try parsed.value("until").map { text throws(UsageError) in try JournalQuery.Bound(text, option: "until", path: parsed.path) }
        query.last = try parsed.integer("lines")
        self.query = query
        follow = parsed.flag("follow")
        text = try ActionFormat(parsed) == .text
        repair = parsed.flag("repair")
    }

    /// What Ctrl-C prints when it ends the command at once.
    var interruptedEnding: String {
        subcommand == "verify" ? "interrupted: the journal was not verified to its end" : "interrupted"
    }

    /// Runs the command; `work` shows the progress of `verify` and takes Ctrl-C. A repair or a
    /// compaction moves or removes files, so an interrupt lets it finish first.
    func run(_ work: LongWork) -> ExitStatus {
        guard let dataDirectory = options.dataDirectoryOrReport() else { return .failure }
        let directory = JournalDirectory(dataDirectory: dataDirectory)
        defer { work.finish() }
        do throws(JournalError) {
            switch subcommand {
            case "verify" where repair:
                _ = work.progress.beginWriting()
                Output.out(try directory.repair().description)
            case "verify":
                let verified = try directory.verify(progress: work.progress)
                work.finish()
                Output.out(verified.description)
            case "compact":
                _ = work.progress.beginWriting()
                Output.out(try directory.compact().description)
            default:
                try show(directory)
            }
            return work.interruptedStatus ?? .success
        } catch {
            work.finish()
            Output.error("switchyard: error: \(error)")
            if error.isCorruption, !repair {
                Output.error("`switchyard journal verify --repair` keeps the journal up to the damage and moves the rest aside (nothing is deleted).")
            }
            return .failure
        }
    }

    /// Prints the matching actions; with `--follow`, then polls for new ones until the window
    /// ends, stdout closes or a signal stops the process.
    private func show(_ directory: JournalDirectory) throws(JournalError) {
        var printer = Printer(text: text)
        defer { printer.flush() }
        var lastSeen: UInt64 = 0
        var ended = false
        var selection = JournalQuery.Selection(limit: query.last)
        try directory.forEachAction { action in
            lastSeen = action.id
            if query.isPastEnd(action) {
                ended = true
                return false
            }
            guard query.matches(action) else { return true }
            if query.last == nil { return printer.print(action) }
            selection.add(action)
            return true
        }
        for action in selection.actions where !printer.closed { _ = printer.print(action) }
        guard follow, !ended else { return }
        printer.flush()
        // A journal is appended to in place; polling its newest segment is what `tail -f`
        // does, and needs no running bus.
        while !ended, !printer.closed {
            usleep(200_000)
            try directory.forEachAction(from: lastSeen + 1) { action in
                guard action.id > lastSeen else { return true }
                lastSeen = action.id
                if query.isPastEnd(action) {
                    ended = true
                    return false
                }
                return query.matches(action) ? printer.print(action) : true
            }
            printer.flush()
        }
    }

    /// Writes actions in large pieces (a journal can hold millions of lines); notices when
    /// whoever reads stdout has gone.
    private struct Printer {
        let text: Bool
        var pending: [UInt8] = []
        var closed = false

        /// Queues one action's line; `false` once stdout is closed.
        mutating func print(_ action: BusAction) -> Bool {
            if text {
                pending += Array(LogFormat.text.line(for: action).utf8)
            } else {
                action.json.serialize(into: &pending)
            }
            pending.append(UInt8(ascii: "\n"))
            if pending.count >= 256 << 10 { flush() }
            return !closed
        }

        mutating func flush() {
            guard !pending.isEmpty, !closed else { return }
            closed = !Output.out(bytes: pending)
            pending.removeAll(keepingCapacity: true)
        }
    }
}
