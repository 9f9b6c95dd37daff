import Synchronization
import Dispatch
import FoundationEssentials
import Glibc
import SwitchyardBus
import SwitchyardDoors

/// `switchyard run [CONFIG] [--log-level LEVEL] [--log-format FORMAT]`: runs the bus until
/// SIGTERM or SIGINT.
struct RunCommand {
    let path: String
    /// Whether the command line named the configuration (else it is the default, relative to
    /// the working directory).
    let pathGiven: Bool
    let signals: SignalListener
    /// Restore a journal written with other state slices instead of refusing it.
    var acceptsSliceChanges = false
    /// `--log-level`; when `nil`, the configuration's `bus.logLevel` (default info).
    var logLevel: LogSink.Level?
    var logFormat: LogSink.Format = .text

    /// The run command of a parsed command line.
    /// - Throws: ``UsageError`` for an unknown level or format.
    init(_ parsed: ParsedArguments, signals: SignalListener) throws(UsageError) {
        path = parsed[positional: "CONFIG"] ?? SwitchyardCommand.defaultConfiguration
        pathGiven = parsed[positional: "CONFIG"] != nil
        self.signals = signals
        acceptsSliceChanges = parsed.flag("accept-slice-changes")
        if let text = parsed.value("log-level") {
            guard let level = LogSink.Level(rawValue: text) else {
                throw UsageError("--log-level expects \(LogSink.Level.allCases.map(\.rawValue).joined(separator: ", ")), got \"\(text)\"", path: parsed.path)
            }
            logLevel = level
        }
        if let text = parsed.value("log-format") {
            guard let format = LogSink.Format(rawValue: text) else {
                throw UsageError("--log-format expects text or json, got \"\(text)\"", path: parsed.path)
            }
            logFormat = format
        }
    }

    /// The log for `settings`: lines from `--log-level` or `bus.logLevel` up. Text lines carry
    /// their time unless journald reads them (`JOURNAL_STREAM`), which stamps every line itself.
    private func log(_ settings: BusSettings?, environment: [String: String]) -> LogSink {
        LogSink(minimumLevel: logLevel ?? settings?.logLevel ?? .info, format: logFormat,
                timestamps: environment["JOURNAL_STREAM"] == nil)
    }

    /// Reports a problem found before the bus runs: as it is in text (a configuration's
    /// problems are one a line, for people), as one JSON line in the JSON format.
    private func report(_ text: String, in log: LogSink) {
        if log.format == .text { Output.error(text) } else { log.write(.error, text) }
    }

    /// What to pass when the default configuration was meant but is not there: the usual
    /// case of `switchyard` run outside the checkout, where `Config/default.json` lives.
    private var missingDefaultHint: String {
        guard !pathGiven, !FileManager.default.fileExists(atPath: path) else { return "" }
        let directory = FileManager.default.currentDirectoryPath
        return "\nswitchyard: without a CONFIG argument, switchyard runs \(path) from the working directory (\(directory)), "
            + "and there is none: pass a configuration, `switchyard run PATH/TO/CONFIG.json` (or `switchyard PATH/TO/CONFIG.json`), "
            + "or run it from the checkout (Config/default.json is the offline demo)"
    }

    func run() async -> ExitStatus {
        let registry = BuiltInPlugins.registry
        let environment = ProcessInfo.processInfo.environment
        let configuration: BusConfiguration
        do {
            configuration = try BusConfiguration.load(contentsOf: path, environment: environment, registry: registry)
        } catch {
            report(error.description + missingDefaultHint, in: log(nil, environment: environment))
            return .invalidConfiguration
        }
        let log = log(configuration.bus, environment: environment)
        // Errors from here on may carry expanded values (a data directory, a URL): the log
        // shows the references, never the secrets.
        log.hide(configuration.secrets)
        // Restoring a long journal takes a while: it shows its progress on a terminal, and a
        // stop signal meanwhile ends the process at once (restoring writes nothing).
        let restoring = LongWork(signals: signals) { signal in
            log.write(.info, "\(signal == SIGINT ? "SIGINT" : "SIGTERM"): stopping while restoring the journal; nothing was started")
            return .success
        }
        let bus: Bus
        do {
            bus = try Bus(configuration: configuration, registry: registry,
                          services: BusServices(acceptsSliceChanges: acceptsSliceChanges, restoreProgress: restoring.progress),
                          serving: .doors(), log: log)
            restoring.finish()
        } catch let error as ConfigurationError {
            restoring.finish()
            report(error.description, in: log)
            return .invalidConfiguration
        } catch let error as JournalError where error.isCorruption {
            restoring.finish()
            log.write(.error, "\(error)\nThe bus does not start on a damaged journal. Inspect it with "
                + "`switchyard journal verify --config \(path)`; `switchyard journal verify --repair --config \(path)` keeps "
                + "everything before the damage and moves the rest aside (nothing is deleted).")
            return .failure
        } catch {
            restoring.finish()
            log.write(.error, "\(error)")
            return .failure
        }
        let notifier = SystemdNotifier(environment: environment)
        let reactions = SignalReactions(bus: bus, configurationPath: path, registry: registry, log: log, notifier: notifier)
        signals.setHandler { signal in reactions.handle(signal) }
        defer { signals.removeHandler() }
        let readiness = Task {
            guard await bus.waitUntilReady() else { return }
            notifier.ready()
            await notifier.pingWatchdog { await bus.isServing }
        }
        defer { readiness.cancel() }
        do {
            try await bus.run()
        } catch {
            log.write(.error, "\(error)")
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
    private let log: LogSink
    private let notifier: SystemdNotifier
    private let stopSignals = StopSignalCount()
    private let reloads = SerialTasks()

    init(bus: Bus, configurationPath: String, registry: PluginRegistry, log: LogSink, notifier: SystemdNotifier) {
        self.bus = bus
        self.log = log
        self.configurationPath = configurationPath
        self.registry = registry
        self.notifier = notifier
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
            let notes = registry.runExitHooks()
            log.write(.warning, "\(name) again: exiting at once" + (notes.isEmpty ? "" : " (\(notes.joined(separator: "; ")))"))
            exit(ExitStatus.failure.rawValue)
        }
        log.write(.info, "\(name): stopping")
        notifier.stopping()
        bus.stop()
        // The bus stops its plugins within the stop timeout; this is the backstop should
        // anything else hang, so a stop request always ends the process.
        let backstop = bus.configuration.bus.stopTimeout + .seconds(5)
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(Int(backstop.components.seconds * 1000))) {
            self.registry.runExitHooks()
            self.log.write(.error, "did not stop within \(backstop); exiting")
            exit(ExitStatus.failure.rawValue)
        }
    }

    /// Validates the file anew and, when it is valid, swaps it in. Reloads run one after
    /// another, in the order the signals came, in a task: the signal thread never reads a
    /// file, so a stop signal is always taken, whatever the configuration path has become.
    /// systemd hears `RELOADING=1` at once and `READY=1` when the reload is done or refused.
    private func reload() {
        notifier.reloading()
        reloads.enqueue { [bus, configurationPath, registry, log, notifier] in
            defer { notifier.ready() }
            let configuration: BusConfiguration
            do throws(ConfigurationError) {
                configuration = try ConfigurationLoader.load(configurationPath, registry: registry)
            } catch {
                log.write(.warning, "SIGHUP: keeping the running configuration; the new one is invalid:\n\(error.description)")
                return
            }
            log.write(.info, "SIGHUP: reloading \(configurationPath)")
            do {
                try await bus.reload(configuration)
            } catch {
                log.write(.warning, "SIGHUP: keeping the running configuration: \(error)")
            }
        }
    }
}

/// Runs async work one piece after another, in the order it was enqueued.
private final class SerialTasks: Sendable {
    private let last = Mutex<Task<Void, Never>?>(nil)

    func enqueue(_ work: @escaping @Sendable () async -> Void) {
        last.withLock { last in
            let previous = last
            last = Task {
                await previous?.value
                await work()
            }
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
