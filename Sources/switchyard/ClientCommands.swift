import FoundationEssentials
import SwitchyardBus
import SwitchyardDoors

/// The thin clients of a running bus: each connects, sends one request and prints what comes
/// back. Exit status 0 for `ok`, 1 for an error reply or no bus, 2 for a wrong command line.
///
/// Each command first checks its arguments (throwing ``UsageError``) and returns the work to
/// run on a thread of its own.
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

    /// Why `text` is not a type pattern.
    static func patternProblem(_ text: String) -> String {
        "\(JSON.string(text)) is not a type pattern (\"*\", \"gps/*\", \"*/changed\", \"gps/fix\", or several: \"gps/* location/*\")"
    }

    /// `switchyard send TYPE [JSON]`: dispatches an action and prints the reply, which has its id.
    static func send(_ parsed: ParsedArguments, _ options: ClientOptions) throws(UsageError) -> @Sendable () -> ExitStatus {
        var payload: JSON = .null
        if let text = parsed[positional: "JSON"] {
            do {
                payload = try JSON(parsing: text)
            } catch {
                throw UsageError("the payload is not valid JSON: \(error)", path: parsed.path)
            }
        }
        let request = ControlRequest.dispatch(BusAction(type: parsed[positional: "TYPE"] ?? "", payload: payload, source: "control"))
        return {
            withClient(options) { client throws(ControlClient.Failure) in
                Output.out(try client.request(request.json).serialized())
                return .success
            }
        }
    }

    /// `switchyard state [PATH] [--json]`: prints the state at a dotted path, indented.
    static func state(_ parsed: ParsedArguments, _ options: ClientOptions) -> ExitStatus {
        withClient(options) { client throws(ControlClient.Failure) in
            let reply = try client.request(ControlRequest.state(path: parsed[positional: "PATH"] ?? "").json)
            let state = reply["state"] ?? .null
            Output.out(parsed.flag("json") ? state.serialized() : state.prettyPrinted())
            return .success
        }
    }

    /// `switchyard stats [--json]`: prints the bus's counters.
    static func stats(_ parsed: ParsedArguments, _ options: ClientOptions) -> ExitStatus {
        withClient(options) { client throws(ControlClient.Failure) in
            let stats = try client.request(ControlRequest.stats.json)["stats"] ?? .null
            Output.out(parsed.flag("json") ? stats.serialized() : StatsReport(stats).text)
            return .success
        }
    }
}
