import Foundation
import Switchyard

/// The options the client and journal commands share, and where they find the bus.
///
/// The socket is `--socket PATH`, or `control.sock` in the data directory the other options
/// name: `--data-dir DIR` (also spelled `--data-directory`), `--bus NAME`, `--config FILE`,
/// `$SWITCHYARD_DATA`, or else the only bus in `.switchyard/` or `/var/lib/switchyard/` (see
/// ``BusLocator``). Relative data directories are taken from the working directory, as
/// `switchyard run` does.
struct ClientOptions {
    var socket: String?
    var configuration: String?
    var dataDirectory: String?
    var bus: String?
    var json = false
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
            let argument = argument == "--data-directory" ? "--data-dir" : argument
            guard allowed.contains(argument) else { throw UsageError(message: "unknown option \(argument)") }
            switch argument {
            case "--json":
                json = true
            default:
                guard let value = remaining.popFirst() else { throw UsageError(message: "\(argument) needs a value") }
                switch argument {
                case "--socket": socket = value
                case "--config": configuration = value
                case "--bus": bus = value
                default: dataDirectory = value
                }
            }
        }
        let choices = [("--socket", socket), ("--data-dir", dataDirectory), ("--bus", bus), ("--config", configuration)]
            .filter { $0.1 != nil }.map(\.0)
        if choices.count > 1 { throw UsageError(message: "give one of \(choices.joined(separator: ", ")), not several") }
    }

    /// The data directory the options name.
    /// - Throws: ``ConfigurationError`` for a `--config` that cannot be read, or a
    ///   ``BusLocator/Failure`` when no single bus is meant.
    func resolvedDataDirectory() throws -> String {
        if let dataDirectory { return dataDirectory }
        if let bus { return try BusLocator().directory(ofBus: bus) }
        guard let configuration else { return try BusLocator().defaultDirectory() }
        let registry = BuiltInPlugins.registry
        // Only the bus section matters here; plugin settings are the running bus's business.
        return try BusConfiguration.load(contentsOf: configuration, environment: ProcessInfo.processInfo.environment,
                                         knownKinds: registry.kinds).bus.dataDirectory
    }

    /// The control socket the options name.
    func resolvedSocket() throws -> String {
        if let socket { return socket }
        return BusServices.socketPath(dataDirectory: try resolvedDataDirectory())
    }
}
