import Foundation
import Synchronization
import Switchyard

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
            configuration = try ConfigurationLoader.load(configurationPath, registry: registry)
        } catch {
            Output.error(error.description)
            return .invalidConfiguration
        }
        let actions: [BusAction]
        do throws(JournalError) {
            actions = try RecordedRange.actions(of: try JournalRecording(path: recording), query)
        } catch {
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
            Output.error("switchyard: error: \(directory) already holds a journal; a replay starts from an empty state in a data directory of its own: choose a new --data-dir")
            return .failure
        }
        configuration.bus.dataDirectory = directory
        let log = LogSink(minimumLevel: configuration.bus.logLevel, format: .text, timestamps: false)
        log.hide(configuration.secrets)
        let bus: Bus
        do {
            bus = try Bus(configuration: configuration, registry: registry, services: BusServices(controlSocket: effects), log: log)
        } catch let error as ConfigurationError {
            Output.error(error.description)
            return .invalidConfiguration
        } catch {
            Output.error("switchyard: error: \(error)")
            return .failure
        }
        let speed = pace.speed.map { "×\($0.formatted())" } ?? "as fast as possible"
        Output.error("replay: \(actions.count) action\(actions.count == 1 ? "" : "s") (recorded ids \(first.id)-\(last.id)) from \(recording) "
            + "\(step ? "step by step" : "at \(speed)") into \(directory), effects \(effects ? "on" : "off")")
        var running: Task<Void, any Error>?
        if effects {
            running = Task { try await bus.run() }
            guard await bus.waitUntilReady() else {
                do { try await running?.value } catch { Output.error("switchyard: error: \(error)") }
                return .failure
            }
        }
        let feed = Task { [pace, step] in
            await ReplayFeed(actions: actions, pace: pace).run(on: ContinuousClock(), step: step ? Self.waitForEnter : nil) {
                await bus.dispatchRecorded($0)
            }
        }
        let interrupted = Mutex(false)
        signals.setHandler { signal in
            guard signal != SIGHUP else { return }
            interrupted.withLock { $0 = true }
            feed.cancel()
        }
        defer { signals.removeHandler() }
        let outcome = await feed.value
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
        if outcome.stoppedEarly, !interrupted.withLock({ $0 }), !step {
            Output.error("switchyard: error: the bus stopped taking actions after \(outcome.replayed); see the log above")
            return .failure
        }
        return .success
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

    /// `--step`: shows the next action on stderr and waits for a line on stdin; `false` at the
    /// end of input or when the task is cancelled (SIGINT).
    @Sendable static func waitForEnter(_ action: BusAction) async -> Bool {
        Output.error("step: #\(action.id) \(action.type) from \(action.source) at \(Timestamp.iso8601(action.time)): Enter replays it, Ctrl-D stops")
        let answer = OneAnswer()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                answer.set(continuation)
                Thread.detachNewThread { answer.give(readLine(strippingNewline: true) != nil) }
            }
        } onCancel: {
            answer.give(false)
        }
    }
}

/// The first answer to a question asked from two sides (a line on stdin, a cancellation).
private final class OneAnswer: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Bool, Never>?
        var answer: Bool?
    }

    private let state = Mutex(State())

    func set(_ continuation: CheckedContinuation<Bool, Never>) {
        let early = state.withLock { state -> Bool? in
            if let answer = state.answer { return answer }
            state.continuation = continuation
            return nil
        }
        if let early { continuation.resume(returning: early) }
    }

    func give(_ answer: Bool) {
        let waiting = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            guard state.answer == nil else { return nil }
            state.answer = answer
            defer { state.continuation = nil }
            return state.continuation
        }
        waiting?.resume(returning: answer)
    }
}
