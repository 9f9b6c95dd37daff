import SwitchyardBus
import Synchronization

/// One run of an `exec` plugin: the child it started and the traffic between it and the bus.
///
/// Actions matching the plugin's pattern go to the child's input queue without ever waiting;
/// the child's lines become actions, protocol errors or log lines. A session ends when the
/// child exits by itself, when the bus stops (its action stream ends) or when the plugin's
/// task is cancelled.
final class ExecSession: Sendable {
    /// How a session's main phase ended.
    enum Ending: Sendable, Hashable {
        /// The child exited by itself.
        case exited(ChildExitStatus)
        /// The bus is stopping the plugin: the child must be stopped.
        case stopping
    }

    /// How actions from the child reach the bus.
    enum Delivery: Sendable {
        /// Wait for room in the bus inbox: a flooding child is slowed down to the bus's pace.
        case dispatch
        /// Never wait (while stopping): an action that finds the inbox full is lost and logged.
        case send
    }

    private struct Tally: Sendable {
        var protocolErrors = 0
        var isReady = false
    }

    /// Bytes of a bad line quoted in a `NAME/protocol-error` action.
    static let excerptLength = 200

    let context: PluginContext
    let connection: ChildConnection
    let settings: ExecSettings
    private let tally = Mutex(Tally())

    init(context: PluginContext, connection: ChildConnection, settings: ExecSettings) {
        self.context = context
        self.connection = connection
        self.settings = settings
    }

    /// Moves actions and lines both ways until the child exits or the plugin must stop it.
    func exchange() async -> Ending {
        await withTaskGroup(of: Ending?.self) { group in
            group.addTask { await self.forwardActions() ? .stopping : nil }
            group.addTask {
                while let event = await self.connection.next() {
                    if case .exited(let status) = event { return .exited(status) }
                    await self.handle(event, delivery: .dispatch)
                }
                return nil
            }
            var endings: [Ending] = []
            while endings.isEmpty, let result = await group.next() {
                endings += result.map { [$0] } ?? []
            }
            group.cancelAll()
            for await late in group {
                endings += late.map { [$0] } ?? []
            }
            // An exit that raced with the end of the action stream is still an exit.
            return endings.first { $0 != .stopping } ?? .stopping
        }
    }

    /// Writes matching actions to the child until the action stream ends; returns `true`
    /// when it ended because the bus is stopping (not for a plugin without a subscription,
    /// whose stream ends at once, nor on cancellation).
    private func forwardActions() async -> Bool {
        guard settings.actions != nil else { return false }
        for await action in context.actions where action.source != context.name {
            var line: [UInt8] = []
            action.json.serialize(into: &line)
            line.append(UInt8(ascii: "\n"))
            if case .overflowed(startsEpisode: true) = connection.enqueue(line) {
                reportOverflow()
            }
        }
        return !Task.isCancelled
    }

    private func reportOverflow() {
        let dropped = connection.inputCounters.dropped
        context.log.warning("the child reads its stdin too slowly; \(settings.overflow.rawValue) (\(dropped) line(s) dropped so far)")
        context.send("\(context.name)/overflow", payload: [
            "dropped": .integer(Int64(dropped)),
            "policy": .string(settings.overflow.rawValue),
            "queueSize": .integer(Int64(settings.queueSize)),
        ])
    }

    /// Turns one event from the child into an action, a readiness report or a log line.
    func handle(_ event: ChildEvent, delivery: Delivery) async {
        switch event {
        case .output(let line):
            do {
                switch try ChildMessage.decode(line) {
                case .action(let type, let payload, let cause):
                    await emit(type, payload: payload, cause: cause, delivery: delivery)
                case .ready:
                    markReady()
                case nil:
                    break
                }
            } catch {
                await reportProtocolError(error.description, excerpt: line.prefix(Self.excerptLength), length: line.count, delivery: delivery)
            }
        case .overlongOutput(let excerpt, let length):
            let reason = "line of \(length) bytes is longer than maxLineLength (\(settings.maximumLineLength))"
            await reportProtocolError(reason, excerpt: excerpt.prefix(Self.excerptLength), length: length, delivery: delivery)
        case .diagnostic(let text):
            context.log.info(text)
        case .exited:
            break
        }
    }

    private func markReady() {
        guard settings.handshake else { return }
        let first = tally.withLock { tally in
            defer { tally.isReady = true }
            return !tally.isReady
        }
        if first {
            context.log.info("child reported ready")
            context.ready()
        }
    }

    private func reportProtocolError(_ reason: String, excerpt: ArraySlice<UInt8>, length: Int, delivery: Delivery) async {
        let count = tally.withLock { tally in
            tally.protocolErrors += 1
            return tally.protocolErrors
        }
        if count == 1 {
            context.log.warning("protocol error (later ones are only counted): \(reason)")
        }
        await emit("\(context.name)/protocol-error", payload: [
            "reason": .string(reason),
            "excerpt": .string(String(decoding: excerpt, as: UTF8.self)),
            "length": .integer(Int64(length)),
        ], cause: nil, delivery: delivery)
    }

    private func emit(_ type: String, payload: JSON, cause: UInt64?, delivery: Delivery) async {
        switch delivery {
        case .dispatch:
            await context.dispatch(type, payload: payload, cause: cause)
        case .send:
            if !context.send(type, payload: payload, cause: cause) {
                context.log.warning("lost \(type) from the stopping child: the bus inbox is full")
            }
        }
    }

    /// Reports how the child ended as `NAME/exited`, with its counters; `stop` tells how a
    /// stop ended it, `nil` when it exited by itself.
    func reportExit(_ status: ChildExitStatus, stop: StopOutcome?) async {
        let counters = connection.inputCounters
        let protocolErrors = tally.withLock { $0.protocolErrors }
        var payload: JSON = [
            "pid": .integer(Int64(connection.pid)),
            "written": .integer(Int64(counters.written)),
            "dropped": .integer(Int64(counters.dropped)),
            "discarded": .integer(Int64(counters.discarded)),
            "protocolErrors": .integer(Int64(protocolErrors)),
        ]
        switch status {
        case .exited(let code): payload["code"] = .integer(Int64(code))
        case .signalled(let signal): payload["signal"] = .integer(Int64(signal))
        }
        let summary = "input \(counters), \(protocolErrors) protocol error(s)"
        if let stop {
            payload["stoppedBy"] = switch stop {
            case .exitedAfterInputClosed: "stdin-closed"
            case .terminated: "SIGTERM"
            case .killed: "SIGKILL"
            }
            context.log.info("stopped: child \(stop); \(summary)")
            await emit("\(context.name)/exited", payload: payload, cause: nil, delivery: .send)
        } else {
            if status.isSuccess {
                context.log.info("child exited with \(status); \(summary)")
            } else {
                context.log.warning("child exited with \(status); \(summary)")
            }
            await emit("\(context.name)/exited", payload: payload, cause: nil, delivery: .dispatch)
        }
    }
}
