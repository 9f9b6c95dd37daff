import Switchyard

/// `switchyard journal show | verify | compact`: the journal of a bus's data directory.
enum JournalCommand {
    static func run(_ options: ClientOptions) -> ExitStatus {
        guard options.positionals.count == 1, let action = options.positionals.first else {
            return SwitchyardCommand.usageError("journal takes one of show, verify, compact")
        }
        let directory: JournalDirectory
        do {
            directory = JournalDirectory(dataDirectory: try options.resolvedDataDirectory())
        } catch {
            Output.error("\(error)")
            return .failure
        }
        do throws(JournalError) {
            switch action {
            case "show":
                // Written in large pieces: a journal can hold millions of lines.
                var pending: [UInt8] = []
                defer { Output.out(bytes: pending) }
                try directory.forEachAction { action in
                    action.json.serialize(into: &pending)
                    pending.append(UInt8(ascii: "\n"))
                    if pending.count >= 256 << 10 {
                        Output.out(bytes: pending)
                        pending.removeAll(keepingCapacity: true)
                    }
                    return true
                }
            case "verify":
                Output.out(try directory.verify().description)
            case "compact":
                Output.out(try directory.compact().description)
            default:
                return SwitchyardCommand.usageError("unknown journal command \"\(action)\"; use show, verify or compact")
            }
            return .success
        } catch {
            Output.error("switchyard: error: \(error)")
            return .failure
        }
    }
}
