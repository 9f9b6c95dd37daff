import Foundation
import Switchyard

/// Where the client and journal commands find the bus.
///
/// The socket is `--socket PATH`, or `control.sock` in the data directory of `--config FILE`,
/// or in that of `Config/default.json` when it exists, or `.switchyard/control.sock`. Relative
/// data directories are taken from the working directory, as `switchyard run` does.
struct ClientOptions: Sendable {
    var socket: String?
    var configuration: String?
    var dataDirectory: String?

    /// The options of a parsed command line (see ``CommandTable/clientOptions`` and
    /// ``CommandTable/journalOptions``).
    /// - Throws: ``UsageError`` when two options that each name the bus are given together.
    init(_ parsed: ParsedArguments) throws(UsageError) {
        socket = parsed.value("socket")
        configuration = parsed.value("config")
        dataDirectory = parsed.value("data-directory")
        if socket != nil, configuration != nil { throw UsageError("give --socket or --config, not both", path: parsed.path) }
        if dataDirectory != nil, configuration != nil { throw UsageError("give --data-directory or --config, not both", path: parsed.path) }
    }

    init(socket: String? = nil, configuration: String? = nil, dataDirectory: String? = nil) {
        self.socket = socket
        self.configuration = configuration
        self.dataDirectory = dataDirectory
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
