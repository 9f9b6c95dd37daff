import FoundationEssentials
import SwitchyardBus
import SwitchyardDoors

/// `switchyard tail [PATTERN...] [-n N] [--count N] [--buffer N] [--overflow POLICY] [--json|--text]`:
/// prints each matching action as it is reduced, until the bus stops (exit 0), drops this
/// watcher for falling behind (exit 1, saying so), the connection ends without the bus saying
/// why (exit 1), or `--count` actions were printed (exit 0). With `--overflow drop-oldest`
/// the bus keeps the watcher and the actions it lost are reported on stderr.
///
/// With `-n N` it first prints the last N matching actions from the journal. The watch is
/// registered before the journal is read, and live actions the journal already showed are
/// skipped by id, so the two parts meet with no gap and no duplicate.
struct TailCommand: Sendable {
    let pattern: TypePattern
    let history: Int
    let count: Int?
    let format: ActionFormat
    let watch: WatchOptions
    let options: ClientOptions

    /// - Throws: ``UsageError`` for a bad pattern or count.
    init(_ parsed: ParsedArguments, options: ClientOptions) throws(UsageError) {
        let text = parsed[positional: "PATTERN"] ?? "*"
        guard let pattern = TypePattern(text) else { throw UsageError(ClientCommand.patternProblem(text), path: parsed.path) }
        self.pattern = pattern
        history = try parsed.integer("lines") ?? 0
        count = try parsed.integer("count", in: 1...Int.max)
        format = try ActionFormat(parsed)
        var watch = WatchOptions(buffer: try parsed.integer("buffer", in: 1...WatchOptions.maximumBuffer))
        if let overflow = parsed.value("overflow") {
            guard let policy = WatchOptions.Overflow(rawValue: overflow) else {
                throw UsageError("--overflow takes disconnect or drop-oldest, got \(overflow)", path: parsed.path)
            }
            watch.overflow = policy
        }
        self.watch = watch
        self.options = options
    }

    func run() -> ExitStatus {
        ClientCommand.withClient(options) { client throws(ControlClient.Failure) in
            _ = try client.request(ControlRequest.watch(actions: pattern, state: nil, options: watch).json)
            var printed = 0
            var shownThrough: UInt64 = 0
            if history > 0 {
                var selection = JournalQuery.Selection(limit: history)
                do {
                    try JournalDirectory(dataDirectory: try dataDirectory()).forEachAction { action in
                        shownThrough = action.id
                        if pattern.matches(action.type) { selection.add(action) }
                        return true
                    }
                } catch {
                    throw ControlClient.Failure(message: "cannot read the journal for -n: \(error)")
                }
                for action in selection.actions {
                    guard print(action.json, action: action), (count.map { printed + 1 < $0 } ?? true) else { return .success }
                    printed += 1
                }
            }
            while let line = try client.receive(timeout: nil) {
                if line["error"]?["code"] == "too-slow" {
                    let reason = line["error"]?["message"]?.stringValue ?? "it fell behind"
                    Output.error("switchyard: the bus dropped this watcher because it fell behind (\(reason)); later actions "
                        + "are not shown. Read faster, or use --buffer N or --overflow drop-oldest")
                    return .failure
                }
                try ControlClient.check(line)
                if line["end"] != nil {
                    Output.error("switchyard: the bus stopped")
                    return .success
                }
                if let dropped = line["dropped"] {
                    Output.error("switchyard: \(dropped) actions were dropped because this watcher fell behind")
                    continue
                }
                guard let object = line["action"] else { continue }
                let action = try? BusAction(json: object, defaultSource: "")
                if let action, action.id <= shownThrough { continue }
                // Whoever read the output is gone (`switchyard tail | head`): done.
                guard print(object, action: action) else { return .success }
                printed += 1
                if let count, printed >= count { return .success }
            }
            Output.error("switchyard: error: the connection to the bus ended without the bus saying why (it may have "
                + "crashed); later actions are not shown")
            return .failure
        }
    }

    /// Prints one action; `false` when stdout is closed.
    private func print(_ object: JSON, action: BusAction?) -> Bool {
        if format == .text, let action { return Output.out(LogFormat.text.line(for: action)) }
        return Output.out(object.serialized())
    }

    /// Where the journal is: the socket's directory when `--socket` named it.
    private func dataDirectory() throws(ControlClient.Failure) -> String {
        if let socket = options.socket, options.dataDirectory == nil {
            return socket.parentDirectory
        }
        do {
            return try options.resolvedDataDirectory()
        } catch {
            throw ControlClient.Failure(message: "\(error)")
        }
    }
}
