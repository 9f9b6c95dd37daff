import Foundation
import LoggerPlugin
import Switchyard

/// `switchyard tail [PATTERN] [-n N] [--count N] [--json]`: prints each matching action as it
/// is reduced, until the bus stops (exit 0), drops this watcher (exit 1), or `--count` actions
/// were printed (exit 0).
///
/// With `-n N` it first prints the last N matching actions from the journal. The watch is
/// registered before the journal is read, and live actions the journal already showed are
/// skipped by id, so the two parts meet with no gap and no duplicate.
struct TailCommand: Sendable {
    let pattern: TypePattern
    let history: Int
    let count: Int?
    let json: Bool
    let options: ClientOptions

    /// - Throws: ``UsageError`` for a bad pattern or count.
    init(_ parsed: ParsedArguments, options: ClientOptions) throws(UsageError) {
        let text = parsed[positional: "PATTERN"] ?? "*"
        guard let pattern = TypePattern(text) else { throw UsageError(ClientCommand.patternProblem(text), path: parsed.path) }
        self.pattern = pattern
        history = try parsed.integer("lines") ?? 0
        count = try parsed.integer("count", in: 1...Int.max)
        json = parsed.flag("json")
        self.options = options
    }

    func run() -> ExitStatus {
        ClientCommand.withClient(options) { client throws(ControlClient.Failure) in
            _ = try client.request(ControlRequest.watch(actions: pattern, state: nil).json)
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
                try ControlClient.check(line)
                guard let object = line["action"] else { continue }
                let action = try? BusAction(json: object, defaultSource: "")
                if let action, action.id <= shownThrough { continue }
                // Whoever read the output is gone (`switchyard tail | head`): done.
                guard print(object, action: action) else { return .success }
                printed += 1
                if let count, printed >= count { return .success }
            }
            Output.error("switchyard: the bus closed the connection")
            return .success
        }
    }

    /// Prints one action; `false` when stdout is closed.
    private func print(_ object: JSON, action: BusAction?) -> Bool {
        if !json, let action { return Output.out(LogFormat.text.line(for: action)) }
        return Output.out(object.serialized())
    }

    /// Where the journal is: the socket's directory when `--socket` named it.
    private func dataDirectory() throws(ControlClient.Failure) -> String {
        if let socket = options.socket, options.dataDirectory == nil {
            return (socket as NSString).deletingLastPathComponent
        }
        do {
            return try options.resolvedDataDirectory()
        } catch {
            throw ControlClient.Failure(message: "\(error)")
        }
    }
}
