import FoundationEssentials
import Glibc
import SwitchyardBus
import SwitchyardDoors

/// `switchyard inspect DATA_DIR --config FILE [--http HOST:PORT]`: the dashboard over a
/// recording, read-only, without running a plugin (``RecordingDoor``), until SIGINT or SIGTERM
/// (exit 0). Exit 1 when the journal cannot be read or the address cannot be listened on, 2 for
/// a wrong command line, 78 for an invalid configuration.
struct InspectCommand: Sendable {
    let dataDirectory: String
    let configuration: String
    let listen: String

    /// - Throws: ``UsageError`` without `--config`.
    init(_ parsed: ParsedArguments) throws(UsageError) {
        dataDirectory = parsed[positional: "DATA_DIR"] ?? ""
        guard let configuration = parsed.value("config") else {
            throw UsageError("inspect needs --config FILE: the plugin set that recorded it, whose reducers rebuild the state", path: parsed.path)
        }
        self.configuration = configuration
        listen = parsed.value("http") ?? "127.0.0.1:8080"
    }

    func run(signals: SignalListener) async -> ExitStatus {
        let door: RecordingDoor
        do {
            let (loaded, history) = try ConfigurationLoader.history(configuration, dataDirectory: dataDirectory)
            door = try RecordingDoor(history: history, busName: loaded.bus.name, plugins: loaded.plugins.map { ($0.name, $0.kind) },
                                     registry: BuiltInPlugins.registry, listen: listen, log: LogSink())
        } catch {
            return .reporting(error)
        }
        signals.setHandler { signal in
            if signal != SIGHUP { exit(ExitStatus.success.rawValue) }
        }
        Output.error("inspect: serving \(dataDirectory) read-only at \(door.url) (Ctrl-C ends)")
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(3600))
        }
        await door.stop()
        return .success
    }
}
