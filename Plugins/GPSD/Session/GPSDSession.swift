import SwitchyardIO
import SwitchyardBus
import Synchronization

/// Where a session's results go: actions to emit (`NAME/<event>`) and log lines.
struct GPSDSessionOutput: Sendable {
    /// Emits `NAME/<event>` with `payload`, waiting for room on the bus.
    var emit: @Sendable (_ event: String, _ payload: JSON) async -> Void
    /// Logs an informational line.
    var info: @Sendable (String) -> Void
    /// Logs a warning.
    var warning: @Sendable (String) -> Void
    /// Counts the times reading paused for a slow bus, and connections gpsd ended meanwhile.
    var flow = GPSDFlowCounters()
}

/// Runs the gpsd feed until cancelled: connects, watches, translates lines into actions,
/// reconnects with backoff and watches for silence.
///
/// Lines wait for the bus in an ``AsyncBridge``: at `bufferedLines` waiting the socket stops
/// being read (the kernel's buffer and then gpsd hold the rest) and it is read again once the
/// bus has taken half of them, so a slow bus loses nothing. gpsd itself ends a client whose
/// backlog outgrows its buffer: such an end is logged and reported as `disconnected` with
/// that reason, and counted.
///
/// The pure parts — ``GPSDConnectionStateMachine`` and ``GPSDFeedTranslator`` — decide; the
/// session only moves events between them, the transport and the clock. It never throws:
/// every failure becomes a status and a retry, so the bus never sees gpsd trouble as a crash.
struct GPSDSession: Sendable {
    /// The session's settings.
    let configuration: GPSDConfiguration
    /// The clock for backoff, rate limits and the watchdog.
    let clock: any Clock<Duration>
    /// How connections are opened.
    let transport: any GPSDTransport
    /// Where actions and log lines go.
    let output: GPSDSessionOutput

    private enum Event: Sendable {
        case socket(LineSocketEvent)
        case tick
    }

    private enum Next {
        case connect
        case wait(Duration)
        case stop
    }

    /// Runs until the task is cancelled.
    func run() async {
        let stopwatch = Stopwatch(clock: clock)
        var machine = GPSDConnectionStateMachine(configuration: configuration.machineConfiguration)
        var translator = GPSDFeedTranslator(
            device: configuration.device, satellitesInterval: configuration.satellitesInterval)
        var actions = machine.start(at: stopwatch.elapsed)
        while !Task.isCancelled {
            var next = Next.stop
            for action in actions {
                switch action {
                case .report(let report): await emitStatus(report, gpsdRelease: translator.gpsdRelease)
                case .connect: next = .connect
                case .reconnect(let delay): next = .wait(delay)
                case .sendWatch: break
                }
            }
            switch next {
            case .connect:
                actions = await watch(&machine, &translator, stopwatch)
            case .wait(let delay):
                do { try await clock.sleep(for: delay) } catch { return }
                actions = machine.reconnectDue(at: stopwatch.elapsed)
            case .stop:
                return
            }
        }
    }

    /// Runs one connection to its end; returns the machine's actions after it (none when
    /// cancelled).
    private func watch(
        _ machine: inout GPSDConnectionStateMachine, _ translator: inout GPSDFeedTranslator, _ stopwatch: Stopwatch
    ) async -> [GPSDConnectionStateMachine.Action] {
        let high = max(1, configuration.bufferedLines)
        let resumer = Mutex<(any GPSDConnection)?>(nil)
        let events = AsyncBridge<Event>(highWatermark: high, lowWatermark: high / 2) {
            resumer.withLock { $0 }?.resumeReading()
        }
        let flow = output.flow
        let pausedBefore = flow.pauses
        let connection = transport.open(configuration.endpoint, options: configuration.socketOptions, events: { event in
            if case .pause = events.yield(.socket(event)) { flow.notePause() }
            if case .closed = event { events.finish() }
        }, shouldRead: { !events.isProducerPaused })
        resumer.withLock { $0 = connection }
        defer {
            connection.close()
            events.finish()
        }
        let clock = clock
        let period = configuration.watchdogPeriod
        return await withTaskGroup(of: Void.self) { group in
            group.addTask {
                while true {
                    do { try await clock.sleep(for: period) } catch { return }
                    _ = events.yield(.tick)
                }
            }
            defer { group.cancelAll() }
            for await event in events {
                let now = stopwatch.elapsed
                switch event {
                case .socket(.connected):
                    await perform(machine.connectionEstablished(at: now), on: connection, translator)
                case .socket(.line(let bytes)):
                    let line = GPSDLine(parsing: bytes)
                    await perform(machine.received(line, at: now), on: connection, translator)
                    await deliver(translator.translate(line, at: now))
                case .socket(.discardedLine(let byteCount)):
                    await perform(machine.received(.notJSON, at: now), on: connection, translator)
                    await deliver(translator.discardedLine(byteCount: byteCount, at: now))
                case .socket(.closed(let error)):
                    let pauses = flow.pauses - pausedBefore
                    guard pauses > 0 else {
                        return machine.connectionLost(error.description, at: now)
                    }
                    // gpsd ends a client whose unread backlog outgrows its buffer; what it held
                    // then is lost, which only gpsd could count.
                    flow.noteOverrun()
                    let reason = "\(error.description) after the bus fell behind (reading paused \(pauses) time(s)); "
                        + "gpsd ends a client whose backlog outgrows its buffer, so reports it held were lost"
                    output.warning(reason)
                    return machine.connectionLost(reason, at: now)
                case .tick:
                    await perform(machine.tick(at: now), on: connection, translator)
                }
            }
            if Task.isCancelled { return [] }
            return machine.connectionLost("the connection ended", at: stopwatch.elapsed)
        }
    }

    private func perform(
        _ actions: [GPSDConnectionStateMachine.Action], on connection: any GPSDConnection,
        _ translator: GPSDFeedTranslator
    ) async {
        for action in actions {
            switch action {
            case .report(let report):
                await emitStatus(report, gpsdRelease: translator.gpsdRelease)
            case .sendWatch:
                if !connection.send(GPSDWatchCommand.bytes(device: configuration.device)) {
                    output.warning("could not send ?WATCH to gpsd at \(configuration.endpoint)")
                }
            case .connect, .reconnect:
                break
            }
        }
    }

    private func deliver(_ outputs: [GPSDFeedTranslator.Output]) async {
        for item in outputs {
            switch item {
            case .emit(let event, let payload): await output.emit(event, payload)
            case .info(let message): output.info(message)
            case .warning(let message): output.warning(message)
            }
        }
    }

    private func emitStatus(_ report: GPSDStatusReport, gpsdRelease: String?) async {
        var payload: JSON = [
            "status": .string(report.status.rawValue),
            "endpoint": .string(configuration.endpoint.description),
        ]
        payload["reason"] = report.reason.map(JSON.string)
        payload["retryIn"] = report.retryIn.map { .number($0.secondsValue) }
        if report.status != .disconnected { payload["gpsd"] = gpsdRelease.map(JSON.string) }
        if let reason = report.reason {
            output.info("\(report.status.rawValue): \(reason)")
        } else {
            output.info(report.status.rawValue)
        }
        await output.emit("status", payload)
    }
}

/// Backpressure counters of a gpsd feed: the times reading paused because the bus was behind,
/// and the connections gpsd ended while it was (their reports lost in gpsd).
final class GPSDFlowCounters: Sendable {
    private let paused = Atomic<Int>(0)
    private let overruns = Atomic<Int>(0)

    func notePause() { paused.add(1, ordering: .relaxed) }

    func noteOverrun() { overruns.add(1, ordering: .relaxed) }

    /// Times reading paused.
    var pauses: Int { paused.load(ordering: .relaxed) }

    /// Connections gpsd ended after reading had paused.
    var overrunDisconnects: Int { overruns.load(ordering: .relaxed) }
}
