import FoundationEssentials
import SwitchyardBus

/// Where the client and journal commands find the bus.
///
/// The socket is `--socket PATH`, or `control.sock` in the data directory the other options
/// name: `--data-dir DIR` (also spelled `--data-directory`), `--bus NAME`, `--config FILE`,
/// `$SWITCHYARD_DATA`, or else the only bus in `.switchyard/` or `/var/lib/switchyard/` (see
/// ``BusLocator``). Relative data directories are taken from the working directory, as
/// `switchyard run` does.
struct ClientOptions: Sendable {
    var socket: String?
    var configuration: String?
    var dataDirectory: String?
    var bus: String?

    /// The options of a parsed command line (see ``CommandTable/clientOptions`` and
    /// ``CommandTable/journalOptions``).
    /// - Throws: ``UsageError`` when two options that each name the bus are given together.
    init(_ parsed: ParsedArguments) throws(UsageError) {
        socket = parsed.value("socket")
        configuration = parsed.value("config")
        dataDirectory = parsed.value("data-dir") ?? parsed.value("data-directory")
        bus = parsed.value("bus")
        let given = [("--socket", socket), ("--data-dir", dataDirectory), ("--bus", bus), ("--config", configuration)]
            .filter { $0.1 != nil }.map(\.0)
        if given.count > 1 { throw UsageError("give one of \(given.joined(separator: ", ")), not several", path: parsed.path) }
    }

    init(socket: String? = nil, configuration: String? = nil, dataDirectory: String? = nil, bus: String? = nil) {
        self.socket = socket
        self.configuration = configuration
        self.dataDirectory = dataDirectory
        self.bus = bus
    }

    /// The data directory the options name.
    /// - Throws: ``ConfigurationError`` for a `--config` that cannot be read, or a
    ///   ``BusLocator/Failure`` when no single bus is meant.
    func resolvedDataDirectory() throws -> String {
        if let dataDirectory { return dataDirectory }
        if let bus { return try BusLocator().directory(ofBus: bus) }
        guard let configuration else { return try BusLocator().defaultDirectory() }
        // Only the bus section matters here: the plugins' values (and the variables they need)
        // are the running bus's business.
        return try BusConfiguration.loadBusSettings(contentsOf: configuration, environment: ProcessInfo.processInfo.environment)
            .dataDirectory
    }

    /// The data directory the options name, or `nil` once the reason it cannot be found is
    /// printed (a configuration error as itself, anything else as `switchyard: error: …`).
    func dataDirectoryOrReport() -> String? {
        do {
            return try resolvedDataDirectory()
        } catch let error as ConfigurationError {
            Output.error(error.description)
        } catch {
            Output.error("switchyard: error: \(error)")
        }
        return nil
    }

    /// The control socket the options name.
    func resolvedSocket() throws -> String {
        if let socket { return socket }
        return BusServices.socketPath(dataDirectory: try resolvedDataDirectory())
    }
}
