import Synchronization
import Dispatch
import Foundation
import Switchyard

/// `switchyard run [CONFIG]`: runs the bus until SIGTERM or SIGINT.
struct RunCommand {
    let path: String
    let signals: SignalListener

    func run() async -> ExitStatus {
        let registry = BuiltInPlugins.registry
        let environment = ProcessInfo.processInfo.environment
        let bus: Bus
        do {
            let configuration = try BusConfiguration.load(contentsOf: path, environment: environment, registry: registry)
            bus = try Bus(configuration: configuration, registry: registry)
        } catch {
            Output.error(error.description)
            return .invalidConfiguration
        }
        let reactions = SignalReactions(bus: bus, configurationPath: path, registry: registry)
        signals.setHandler { signal in reactions.handle(signal) }
        defer { signals.removeHandler() }
        let readiness = Task {
            guard await bus.waitUntilReady() else { return }
            if let problem = SystemdNotifier.notify("READY=1", environment: environment) {
                Output.error("switchyard: warning: \(problem)")
            }
        }
        defer { readiness.cancel() }
        do {
            try await bus.run()
        } catch {
            Output.error("switchyard: error: \(error)")
            return .failure
        }
        return .success
    }
}

/// What the process does on each signal.
final class SignalReactions: Sendable {
    private let bus: Bus
    private let configurationPath: String
    private let registry: PluginRegistry
    private let stopSignals = StopSignalCount()

    init(bus: Bus, configurationPath: String, registry: PluginRegistry) {
        self.bus = bus
        self.configurationPath = configurationPath
        self.registry = registry
    }

    func handle(_ signal: Int32) {
        if signal == SIGHUP {
            reload()
        } else {
            stop(signal: signal, count: stopSignals.increment())
        }
    }

    private func stop(signal: Int32, count: Int) {
        let name = signal == SIGINT ? "SIGINT" : "SIGTERM"
        guard count == 1 else {
            Output.error("switchyard: \(name) again: exiting at once")
            exit(ExitStatus.failure.rawValue)
        }
        Output.error("switchyard: info: \(name): stopping")
        _ = SystemdNotifier.notify("STOPPING=1", environment: ProcessInfo.processInfo.environment)
        bus.stop()
        // The bus stops its plugins within the stop timeout; this is the backstop should
        // anything else hang, so a stop request always ends the process.
        let backstop = bus.configuration.bus.stopTimeout + .seconds(5)
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(Int(backstop.components.seconds * 1000))) {
            Output.error("switchyard: error: did not stop within \(backstop); exiting")
            exit(ExitStatus.failure.rawValue)
        }
    }

    private func reload() {
        do {
            let configuration = try ConfigurationLoader.load(configurationPath, registry: registry)
            Output.error("switchyard: info: SIGHUP: \(configurationPath) is valid (\(configuration.plugins.count) plugin(s)); the running configuration is kept until restart")
        } catch {
            Output.error("switchyard: warning: SIGHUP: keeping the running configuration; the new one is invalid:\n\(error.description)")
        }
    }
}

/// Counts stop signals: the first stops gracefully, a second forces the exit.
private final class StopSignalCount: Sendable {
    private let count = Mutex(0)

    func increment() -> Int {
        count.withLock { count in
            count += 1
            return count
        }
    }
}
