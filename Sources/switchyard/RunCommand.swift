import Synchronization
import Dispatch
import Foundation
import Switchyard

/// `switchyard run [CONFIG]`: runs the bus until SIGTERM or SIGINT.
struct RunCommand {
    let path: String

    func run() async -> ExitStatus {
        let registry = BuiltInPlugins.registry
        let environment = ProcessInfo.processInfo.environment
        let bus: Bus
        do {
            let configuration = try BusConfiguration.load(contentsOf: path, environment: environment, knownKinds: registry.kinds)
            bus = try Bus(configuration: configuration, registry: registry)
        } catch {
            Output.error(error.description)
            return .invalidConfiguration
        }
        let signals = SignalHandling(bus: bus, configurationPath: path, registry: registry)
        signals.install()
        defer { signals.uninstall() }
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

/// The Dispatch signal sources of a running bus. The signals were blocked first thing in
/// `main`, so they wait here instead of killing the process.
final class SignalHandling: Sendable {
    private let bus: Bus
    private let configurationPath: String
    private let registry: PluginRegistry
    private let queue = DispatchQueue(label: "switchyard.signals")
    private let sources: [any DispatchSourceSignal]

    init(bus: Bus, configurationPath: String, registry: PluginRegistry) {
        self.bus = bus
        self.configurationPath = configurationPath
        self.registry = registry
        sources = [SIGTERM, SIGINT, SIGHUP].map { DispatchSource.makeSignalSource(signal: $0, queue: queue) }
    }

    func install() {
        let stopSignals = StopSignalCount()
        for source in sources {
            let signal = Int32(source.handle)
            source.setEventHandler { [self] in
                if signal == SIGHUP {
                    reload()
                } else {
                    stop(signal: signal, count: stopSignals.increment())
                }
            }
            source.resume()
        }
    }

    func uninstall() {
        for source in sources { source.cancel() }
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
        queue.asyncAfter(deadline: .now() + .milliseconds(Int(backstop.components.seconds * 1000))) {
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
