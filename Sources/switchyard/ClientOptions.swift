import Foundation
import Switchyard

/// The options the client and journal commands share, and where they find the bus.
///
/// The socket is `--socket PATH`, or `control.sock` in the data directory of `--config FILE`,
/// or in that of `Config/default.json` when it exists, or `.switchyard/control.sock`. Relative
/// data directories are taken from the working directory, as `switchyard run` does.
struct ClientOptions {
    var socket: String?
    var configuration: String?
    var dataDirectory: String?
    var json = false
    /// `tail --buffer N`: how many actions may wait for this watcher.
    var buffer: String?
    /// `tail --overflow disconnect|drop-oldest`: what a backlog beyond the buffer does.
    var overflow: String?
    var positionals: [String] = []

    /// Why the command line cannot be used.
    struct UsageError: Error {
        var message: String
    }

    /// Parses `arguments`, taking the flags in `allowed` anywhere among the positionals.
    init(_ arguments: ArraySlice<String>, allowed: Set<String>) throws(UsageError) {
        var remaining = arguments
        while let argument = remaining.popFirst() {
            guard argument.hasPrefix("--"), argument.count > 2 else {
                positionals.append(argument)
                continue
            }
            guard allowed.contains(argument) else { throw UsageError(message: "unknown option \(argument)") }
            switch argument {
            case "--json":
                json = true
            default:
                guard let value = remaining.popFirst() else { throw UsageError(message: "\(argument) needs a value") }
                switch argument {
                case "--socket": socket = value
                case "--config": configuration = value
                case "--buffer": buffer = value
                case "--overflow": overflow = value
                default: dataDirectory = value
                }
            }
        }
        if socket != nil, configuration != nil { throw UsageError(message: "give --socket or --config, not both") }
        if dataDirectory != nil, configuration != nil { throw UsageError(message: "give --data-directory or --config, not both") }
    }

    /// The data directory the options name.
    func resolvedDataDirectory() throws(ConfigurationError) -> String {
        if let dataDirectory { return dataDirectory }
        let path = configuration ?? SwitchyardCommand.defaultConfiguration
        guard configuration != nil || FileManager.default.fileExists(atPath: path) else { return BusSettings().dataDirectory }
        let registry = BuiltInPlugins.registry
        // Only the bus section matters here; plugin settings are the running bus's business.
        return try BusConfiguration.load(contentsOf: path, environment: ProcessInfo.processInfo.environment,
                                         knownKinds: registry.kinds).bus.dataDirectory
    }

    /// The control socket the options name.
    func resolvedSocket() throws(ConfigurationError) -> String {
        if let socket { return socket }
        return BusServices.socketPath(dataDirectory: try resolvedDataDirectory())
    }
}
