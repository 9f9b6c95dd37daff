import Foundation
import LoggerPlugin
import Switchyard

/// The thin clients of a running bus: each connects, sends one request and prints what comes
/// back. Exit status 0 for `ok`, 1 for an error reply or no bus, 2 for a wrong command line.
enum ClientCommand {
    /// Runs `body` with a connection to the bus the options name, turning failures into
    /// messages on stderr and exit status 1.
    static func withClient(_ options: ClientOptions, _ body: (ControlClient) throws(ControlClient.Failure) -> ExitStatus) -> ExitStatus {
        do {
            let client = try ControlClient(path: try options.resolvedSocket())
            return try body(client)
        } catch let error as ConfigurationError {
            Output.error(error.description)
            return .failure
        } catch let error as ControlClient.Failure {
            Output.error("switchyard: error: \(error.message)")
            return .failure
        } catch {
            Output.error("switchyard: error: \(error)")
            return .failure
        }
    }

    /// `switchyard send TYPE [JSON]`: dispatches an action and prints the reply, which has its id.
    static func send(_ options: ClientOptions) -> ExitStatus {
        guard (1...2).contains(options.positionals.count) else { return SwitchyardCommand.usageError("send takes an action type and an optional JSON payload") }
        var payload: JSON = .null
        if options.positionals.count == 2 {
            do {
                payload = try JSON(parsing: options.positionals[1])
            } catch {
                return SwitchyardCommand.usageError("the payload is not valid JSON: \(error)")
            }
        }
        let request = ControlRequest.dispatch(BusAction(type: options.positionals[0], payload: payload, source: "control"))
        return withClient(options) { client throws(ControlClient.Failure) in
            Output.out(try client.request(request.json).serialized())
            return .success
        }
    }

    /// `switchyard state [PATH]`: prints the state at a dotted path, indented.
    static func state(_ options: ClientOptions) -> ExitStatus {
        guard options.positionals.count <= 1 else { return SwitchyardCommand.usageError("state takes at most one state path") }
        return withClient(options) { client throws(ControlClient.Failure) in
            let reply = try client.request(ControlRequest.state(path: options.positionals.first ?? "").json)
            let state = reply["state"] ?? .null
            Output.out(options.json ? state.serialized() : state.prettyPrinted())
            return .success
        }
    }

    /// `switchyard tail [PATTERN] [--json] [--buffer N] [--overflow disconnect|drop-oldest]`:
    /// prints each matching action as it is reduced, until the bus stops (exit 0), drops this
    /// watcher for falling behind (exit 1, after saying so), or the connection ends without
    /// the bus saying why (exit 1). With `--overflow drop-oldest` lost actions are reported
    /// on stderr and the stream goes on.
    static func tail(_ options: ClientOptions) -> ExitStatus {
        guard options.positionals.count <= 1 else { return SwitchyardCommand.usageError("tail takes at most one type pattern") }
        let text = options.positionals.first ?? "*"
        guard let pattern = TypePattern(text) else {
            return SwitchyardCommand.usageError("\(JSON.string(text)) is not a type pattern (\"*\", \"gps/*\" or \"gps/fix\")")
        }
        var watch = WatchOptions()
        if let buffer = options.buffer {
            guard let count = Int(buffer), (1...WatchOptions.maximumBuffer).contains(count) else {
                return SwitchyardCommand.usageError("--buffer takes a number of actions from 1 to \(WatchOptions.maximumBuffer), got \(buffer)")
            }
            watch.buffer = count
        }
        if let overflow = options.overflow {
            guard let policy = WatchOptions.Overflow(rawValue: overflow) else {
                return SwitchyardCommand.usageError("--overflow takes disconnect or drop-oldest, got \(overflow)")
            }
            watch.overflow = policy
        }
        return withClient(options) { client throws(ControlClient.Failure) in
            _ = try client.request(ControlRequest.watch(actions: pattern, state: nil, options: watch).json)
            while let line = try client.receive(timeout: nil) {
                if line["error"]?["code"] == "too-slow" {
                    let reason = line["error"]?["message"]?.stringValue ?? "it fell behind"
                    Output.error("switchyard: the bus dropped this watcher because it fell behind (\(reason)); actions after it are not shown. Read faster, or use --buffer N or --overflow drop-oldest")
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
                var text = object.serialized()
                if !options.json, let action = try? BusAction(json: object, defaultSource: "") {
                    text = LogFormat.text.line(for: action)
                }
                // Whoever read the output is gone (`switchyard tail | head`): done.
                guard Output.out(text) else { return .success }
            }
            Output.error("switchyard: error: the connection to the bus ended without the bus saying why (it may have crashed); actions after this point are not shown")
            return .failure
        }
    }

    /// `switchyard stats [--json]`: prints the bus's counters.
    static func stats(_ options: ClientOptions) -> ExitStatus {
        guard options.positionals.isEmpty else { return SwitchyardCommand.usageError("stats takes no arguments") }
        return withClient(options) { client throws(ControlClient.Failure) in
            let stats = try client.request(ControlRequest.stats.json)["stats"] ?? .null
            Output.out(options.json ? stats.serialized() : StatsReport(stats).text)
            return .success
        }
    }
}
