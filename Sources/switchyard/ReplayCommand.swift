import FoundationEssentials
import Glibc
import Synchronization
import SwitchyardBus
import SwitchyardDoors
import SwitchyardIO

/// `switchyard replay RECORDING --config CONFIG [...]`: feeds recorded actions into a bus built
/// from CONFIG, in a data directory of its own, at the recorded pace times a speed.
struct ReplayCommand {
    /// How long the bus must stay quiet after the last replayed action before a replay with
    /// effects stops it: plugins react within this, or their later actions are not waited for.
    static let quietPeriod: Duration = .seconds(1)

    let recording: String
    let configurationPath: String
    let dataDirectory: String?
    let query: JournalQuery
    let pace: ReplayPace
    let effects: Bool
    let step: Bool
    let signals: SignalListener

    /// - Throws: ``UsageError`` without `--config`, for a bad range, speed or effects value, or
    ///   for `--speed` with `--as-fast-as-possible`.
    init(_ parsed: ParsedArguments, signals: SignalListener) throws(UsageError) {
        recording = parsed[positional: "RECORDING"] ?? ""
        guard let configuration = parsed.value("config") else {
            throw UsageError("replay needs --config CONFIG: the plugin set to build the replaying bus from", path: parsed.path)
        }
        configurationPath = configuration
        dataDirectory = parsed.value("data-dir")
        query = try RecordedRange.query(parsed)
        switch (parsed.value("speed"), parsed.flag("as-fast-as-possible")) {
        case (_?, true):
            throw UsageError("give --speed or --as-fast-as-possible, not both", path: parsed.path)
        case (let text?, false):
            guard let speed = ReplayPace.parseSpeed(text) else {
                throw UsageError("--speed expects a positive number such as 50 or 0.5, got \"\(text)\"", path: parsed.path)
            }
            pace = ReplayPace(speed: speed)
        case (nil, true):
            pace = .asFastAsPossible
        case (nil, false):
            pace = ReplayPace(speed: 1)
        }
        switch parsed.value("effects") {
        case nil, "off": effects = false
        case "on": effects = true
        case let other?: throw UsageError("--effects expects on or off, got \"\(other)\"", path: parsed.path)
        }
        step = parsed.flag("step")
        self.signals = signals
    }

    func run() async -> ExitStatus {
        let registry = BuiltInPlugins.registry
        var configuration: BusConfiguration
        do {
            // With effects off no plugin runs: only the slices, and the variables they need.
            configuration = effects ? try ConfigurationLoader.load(configurationPath, registry: registry)
                : try ConfigurationLoader.loadForSlices(configurationPath, registry: registry)
        } catch {
            Output.error(error.description)
            if effects { Output.error("replay --effects on runs the plugins, which need these values; --effects off only reduces and needs none the slices do not") }
            return .invalidConfiguration
        }
        let actions: [BusAction]
        var start: ReplayStart?
        // Reading a long recording takes a while: progress on a terminal, and Ctrl-C ends it at
        // once; from the first write on, a stop signal ends the feed instead (below).
        let reading = LongWork(signals: signals, ending: "interrupted: nothing was replayed")
        defer { reading.finish() }
        do throws(JournalError) {
            let opened = try JournalRecording(path: recording)
            actions = try RecordedRange.actions(of: opened, query, progress: reading.progress)
            reading.finish()
            // From the middle of a recording, start from the state it had there.
            if query.since != nil, let first = actions.first { start = try ReplayStart(recording: opened, first: first.id) }
        } catch {
            reading.finish()
            Output.error("switchyard: error: \(error)")
            if error.isCorruption {
                Output.error("Nothing was replayed. `switchyard journal verify --data-dir DIR` shows the damage; `--repair` keeps the journal up to it and moves the rest aside (nothing is deleted).")
            }
            return .failure
        }
        guard let first = actions.first, let last = actions.last else {
            Output.error("switchyard: error: nothing to replay: \(recording) holds no action in the range and of the types asked for")
            return .failure
        }
        let directory = dataDirectory ?? Self.defaultDataDirectory(for: configuration.bus.dataDirectory)
        if FileManager.default.fileExists(atPath: directory + "/journal") {
            Output.error("switchyard: error: \(directory) already holds a journal; a replay writes into a data directory of its own: choose a new --data-dir")
            return .failure
        }
        configuration.bus.dataDirectory = directory
        _ = reading.progress.beginWriting()
        do {
            try start?.seed(dataDirectory: directory)
        } catch {
            Output.error("switchyard: error: \(error)")
            return .failure
        }
        let log = LogSink(minimumLevel: configuration.bus.logLevel, format: .text, timestamps: false)
        log.hide(configuration.secrets)
        let steps = ReplaySteps()
        let bus: Bus
        do {
            // A step-by-step replay serves the control socket even with effects off: its `step`
            // requests come over it.
            let services = BusServices(acceptsSliceChanges: start?.snapshotSequence != nil)
            let doors: [any BusService] = .doors(controlSocket: effects || step, steps: step ? steps : nil)
            bus = effects ? try Bus(configuration: configuration, registry: registry, services: services, serving: doors, log: log)
                : try Bus(reducingOnly: configuration, registry: registry, services: services, serving: doors, log: log)
        } catch let error as ConfigurationError {
            Output.error(error.description)
            return .invalidConfiguration
        } catch {
            Output.error("switchyard: error: \(error)")
            return .failure
        }
        let speed = pace.speed.map { "×\(Int64(exactly: $0).map(String.init) ?? String($0))" } ?? "as fast as possible"
        let stepping = "step by step (Enter on stdin, or {\"op\":\"step\"} on \(BusServices.socketPath(dataDirectory: directory)))"
        Output.error("replay: \(actions.count) action\(actions.count == 1 ? "" : "s") (recorded ids \(first.id)-\(last.id)) from \(recording) "
            + "\(step ? stepping : "at \(speed)") into \(directory), effects \(effects ? "on" : "off")")
        if let start, !start.between.isEmpty || start.snapshotSequence != nil {
            let snapshot = start.snapshotSequence.map { "the snapshot after action \($0)" } ?? "the empty state"
            Output.error("replay: starting from \(snapshot) of \(recording) and \(start.between.count) recorded action\(start.between.count == 1 ? "" : "s") "
                + "before --from, reduced without effects")
            for action in start.between {
                // Before the bus runs: no plugin sees them.
                guard await bus.dispatchRecorded(action) != nil else {
                    Output.error("switchyard: error: the bus stopped taking actions while reducing the actions before --from")
                    await bus.closeWithoutRunning()
                    return .failure
                }
            }
        }
        var running: Task<Void, any Error>?
        if effects {
            running = Task { try await bus.run() }
            guard await bus.waitUntilReady() else {
                do { try await running?.value } catch { Output.error("switchyard: error: \(error)") }
                return .failure
            }
        } else if step {
            do {
                try await bus.serveControlWithoutRunning()
            } catch {
                Output.error("switchyard: error: \(error)")
                await bus.closeWithoutRunning()
                return .failure
            }
        }
        if step { Self.readSteps(into: steps) }
        var waitForStep: (@Sendable (BusAction) async -> Bool)?
        if step {
            waitForStep = { action in
                Output.error("step: #\(action.id) \(action.type) from \(action.source) at \(Timestamp.iso8601(action.time)): "
                    + "Enter or a control client's {\"op\":\"step\"} replays it; Ctrl-D at a terminal stops")
                return await steps.next()
            }
        }
        // Stepping talks on stderr itself: no progress line then.
        let line = ProgressLine(enabled: !step && isatty(STDERR_FILENO) == 1)
        let feed = Task { [pace, waitForStep] in
            let outcome = await ReplayFeed(actions: actions, pace: pace).run(on: ContinuousClock(), step: waitForStep) { action in
                let id = await bus.dispatchRecorded(action)
                if let id { steps.replayed(recorded: action.id, type: action.type, id: id) }
                line.advance("replaying", total: actions.count)
                return id
            }
            steps.finish()
            return outcome
        }
        // A stop signal ends the feed; what was replayed stays, whole, and the exit status
        // says the replay did not finish.
        let interrupted = Mutex<ExitStatus?>(reading.interruptedStatus)
        signals.setHandler { signal in
            guard signal != SIGHUP else { return }
            interrupted.withLock { $0 = .interrupted(by: signal) }
            feed.cancel()
        }
        defer { signals.removeHandler() }
        if interrupted.withLock({ $0 }) != nil { feed.cancel() }
        let outcome = await feed.value
        line.clear()
        if let running {
            await Self.waitUntilQuiet(bus)
            bus.stop()
            do {
                try await running.value
            } catch {
                Output.error("switchyard: error: \(error)")
                return .failure
            }
        } else {
            await bus.closeWithoutRunning()
        }
        let ids = outcome.firstID.map { first in " as ids \(first)-\(outcome.lastID ?? first)" } ?? ""
        Output.out("replayed \(outcome.replayed) of \(actions.count) action\(actions.count == 1 ? "" : "s")\(ids) into \(directory)")
        let stoppedBy = interrupted.withLock { $0 }
        if outcome.stoppedEarly, stoppedBy == nil, !step {
            Output.error("switchyard: error: the bus stopped taking actions after \(outcome.replayed); see the log above")
            return .failure
        }
        return stoppedBy ?? .success
    }

    /// `DIR-replay-20261123T183000Z` beside the configuration's own data directory.
    static func defaultDataDirectory(for dataDirectory: String) -> String {
        let stamp = Timestamp.iso8601(Date()).filter { $0 != "-" && $0 != ":" }.prefix(15)
        let trimmed = dataDirectory.hasSuffix("/") ? String(dataDirectory.dropLast()) : dataDirectory
        return "\(trimmed)-replay-\(stamp)Z"
    }

    /// Waits until the bus has reduced nothing new for ``quietPeriod``.
    static func waitUntilQuiet(_ bus: Bus) async {
        var reduced = bus.statistics.store.reduced
        var quietSince = ContinuousClock.now
        while ContinuousClock.now - quietSince < quietPeriod {
            try? await Task.sleep(for: .milliseconds(50))
            let now = bus.statistics.store.reduced
            if now != reduced {
                reduced = now
                quietSince = ContinuousClock.now
            }
        }
    }

    /// `--step`: each line on stdin lets one action through. The end of input at a terminal
    /// (Ctrl-D) stops the replay; the end of any other input (a pipe, `/dev/null`) only ends
    /// stepping by lines, so a program can drive the replay over the control socket.
    static func readSteps(into steps: ReplaySteps) {
        let terminal = isatty(STDIN_FILENO) == 1
        startDetachedThread {
            while readLine(strippingNewline: true) != nil { steps.permit() }
            if terminal { steps.finish() }
        }
    }
}
