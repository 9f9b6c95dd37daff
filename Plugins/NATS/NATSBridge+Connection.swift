import SwitchyardBus
import SwitchyardIO

extension NATSBridge {
    /// How one connection ended.
    struct Ending: Sendable {
        /// Whether it was ever ready (connected and set up), which resets the backoff.
        var wasReady: Bool
        /// The error kind for `NAME/failed`.
        var kind: String
        /// What happened.
        var reason: String
        /// Whether the bridge itself closed it because the plugin is stopping.
        var isStop: Bool
    }

    /// Connects, serves, and reconnects with backoff and jitter across the configured
    /// servers, until cancelled.
    func maintainConnection() async {
        let endpoints = settings.endpoints
        guard !endpoints.isEmpty else { return }
        var decoder = InboundDecoder(origin: origin, mapping: settings.mapping)
        var attempt = 0
        var index = 0
        while !Task.isCancelled {
            let endpoint = endpoints[index % endpoints.count]
            index += 1
            let ending = await serve(endpoint, decoder: &decoder)
            if Task.isCancelled || ending.isStop { return }
            attempt = ending.wasReady ? 1 : attempt + 1
            let delay = settings.backoff.delay(attempt: attempt, random: Double.random(in: 0..<1))
            reporter.failure(ending.kind, "\(endpoint): \(ending.reason)", details: ["url": .string(endpoint.description)], repeatable: false)
            reporter.status("disconnected", detail: ending.reason, payload: [
                "url": .string(endpoint.description), "kind": .string(ending.kind), "reason": .string(ending.reason),
                "retryIn": .number(delay.secondsValue),
                "counters": counters,
            ])
            do {
                try await context.sleep(for: delay)
            } catch {
                return
            }
        }
    }

    private func serve(_ endpoint: NATSEndpoint, decoder: inout InboundDecoder) async -> Ending {
        let options = NATSConnectOptions(credentials: settings.credentials(for: endpoint), name: "switchyard:\(origin)")
        let connection: NATSConnection
        do {
            connection = try NATSConnection.open(endpoint, options: options, timing: settings.timing)
        } catch {
            return Ending(wasReady: false, kind: error.kind, reason: error.description, isStop: false)
        }
        var wasReady = false
        while let events = await connection.next() {
            var collected = BridgeMachine.Effects()
            var ending: NATSConnectionError?
            var index = events.startIndex
            while index < events.endIndex {
                let event = events[index]
                index += 1
                if case .message = event {
                    // A run of messages (mostly publish acknowledgements) is fed to the machine
                    // under one lock, and what it answers is written at once.
                    var end = index
                    while end < events.endIndex, case .message = events[end] { end += 1 }
                    let run = events[(index - 1)..<end]
                    index = end
                    let time = now()
                    merge(withMachine { machine in
                        var effects = BridgeMachine.Effects()
                        for case .message(let message) in run { machine.received(message, now: time, into: &effects) }
                        return effects
                    }, into: &collected)
                    continue
                }
                switch event {
                case .connected(let info):
                    merge(attach(connection, maxPayload: info.maxPayload), into: &collected)
                    if info.lameDuckMode { context.log.info("\(endpoint) is shutting down (lame duck mode)") }
                case .infoChanged(let info):
                    withMachine { machine in
                        machine.infoChanged(maxPayload: info.maxPayload)
                        return BridgeMachine.Effects()
                    }
                case .message:
                    break
                case .serverError(let text):
                    reporter.failure("server", "\(endpoint): \(text)", details: ["url": .string(endpoint.description)], repeatable: true)
                case .drained:
                    merge(withMachine { $0.drained(now: now()) }, into: &collected)
                case .flushed:
                    if !wasReady {
                        wasReady = true
                        reportConnected(endpoint, info: connection.serverInfo)
                    }
                case .closed(let error):
                    ending = error
                }
            }
            report(collected.reports)
            if collected.becameReady {
                switch settings.mode {
                case .core:
                    // Connected means subscribed: the status waits until the server confirms
                    // it processed the subscriptions.
                    connection.flush()
                case .jetstream:
                    // The setup's round trips already confirmed everything before them.
                    wasReady = true
                    reportConnected(endpoint, info: connection.serverInfo)
                }
            }
            if !collected.deliveries.isEmpty {
                await dispatch(collected.deliveries, via: connection, decoder: &decoder)
                let effects = withMachine { $0.finishedDispatching(now: now()) }
                report(effects.reports)
            }
            if let ending {
                let closedBySelf = detach()
                if let closedBySelf, ending.isClosedByClient {
                    return Ending(wasReady: wasReady, kind: "jetstream", reason: closedBySelf, isStop: false)
                }
                return Ending(wasReady: wasReady, kind: ending.kind, reason: ending.description, isStop: ending.isClosedByClient)
            }
        }
        _ = detach()
        connection.close()
        return Ending(wasReady: wasReady, kind: "closed", reason: "stopped", isStop: true)
    }

    /// The `NAME/failed` action reporting a message that is not an action; `nil` when the
    /// plugin's name makes no valid type (then it is logged instead).
    private func invalidMessageReport(_ reason: String, _ message: NATSMessage) -> BusAction? {
        let type = "\(context.name)/failed"
        guard ActionType.isValid(type) else {
            context.log.error("not emitted: \"\(type)\" is not a valid action type (lower-case domain/event)")
            return nil
        }
        let payload: JSON = [
            "kind": "invalid-message", "message": .string(reason), "subject": .string(message.subject),
            "excerpt": .string(String(decoding: message.payload.prefix(200), as: UTF8.self)),
        ]
        return BusAction(type: type, payload: payload, source: context.name)
    }

    private func merge(_ effects: BridgeMachine.Effects, into collected: inout BridgeMachine.Effects) {
        // Most reads make one run of messages: take its deliveries instead of copying them.
        if collected.deliveries.isEmpty {
            collected.deliveries = effects.deliveries
        } else {
            collected.deliveries += effects.deliveries
        }
        collected.reports += effects.reports
        collected.becameReady = collected.becameReady || effects.becameReady
    }

    private func reportConnected(_ endpoint: NATSEndpoint, info: NATSServerInfo?) {
        reporter.resetFailures()
        context.log.info("connected to \(endpoint) (\(info?.serverName ?? "?"), NATS \(info?.version ?? "?"), \(settings.mode.rawValue))")
        reporter.status("connected", payload: [
            "url": .string(endpoint.description),
            "server": .string(info?.serverName ?? ""),
            "version": .string(info?.version ?? ""),
            "maxPayload": .integer(Int64(info?.maxPayload ?? NATSServerInfo.defaultMaxPayload)),
            "mode": .string(settings.mode.rawValue),
            "counters": counters,
        ])
    }

    /// Dispatches deliveries on the bus in order, then acknowledges the JetStream ones.
    ///
    /// The actions of one batch go into the inbox together, under one lock and with one
    /// wake-up of the store, as far as there is room; the rest wait for room one by one, in
    /// order. With JetStream the last one is awaited, and since the inbox is first in first
    /// out, its return means all of them were reduced (and journaled). Only then are they
    /// acknowledged. When the task is cancelled meanwhile, nothing is known to be durable:
    /// every delivery is negatively acknowledged, so the server redelivers it at once instead
    /// of after the acknowledgement wait.
    private func dispatch(_ deliveries: [BridgeMachine.Delivery], via connection: NATSConnection, decoder: inout InboundDecoder) async {
        setDispatching(true)
        defer { setDispatching(false) }
        // One pass from message to action: an array of decisions in between copied each
        // decision's type, payload and source once more per message.
        var actions: [BusAction] = []
        actions.reserveCapacity(deliveries.count)
        var messageIDs: [String] = []
        var received = 0
        var duplicates = 0
        var invalid = 0
        // When each origin stamped its action, for the transport's lag, read at receipt.
        var stamps: [(InboundDecoder.SentTime, source: String)] = []
        var warnedTime = false
        for delivery in deliveries {
            switch decoder.decide(delivery.message) {
            case .action(let type, let payload, let source, let messageID, let time):
                received += 1
                actions.append(BusAction(type: type, payload: payload, source: source))
                if let messageID { messageIDs.append(messageID) }
                if case .unreadable(let text) = time, !warnedTime {
                    warnedTime = true
                    context.log.warning("a Switchyard-Time header is not a time (ignored, counted in badTimeHeaders): \(JSON.string(text))")
                }
                if time != .absent { stamps.append((time, source)) }
            case .invalid(let reason):
                invalid += 1
                if invalid == 1 { context.log.warning("received a message that is not an action: \(reason)") }
                if let report = invalidMessageReport(reason, delivery.message) { actions.append(report) }
            case .duplicate:
                duplicates += 1
            case .ownOrigin:
                break
            }
        }
        // Only acknowledgements need to know the actions were reduced; core NATS has none,
        // so there nothing is awaited unless the inbox is full.
        let awaitsLast = deliveries.contains { $0.ackSubject != nil } && !actions.isEmpty
        let unawaited = awaitsLast ? actions.count - 1 : actions.count
        var sent = 0
        while sent < unawaited {
            sent += context.send(relayed: actions[sent..<unawaited])
            if sent < unawaited {
                await context.dispatch(relayed: actions[sent])
                sent += 1
            }
        }
        if awaitsLast, let last = actions.last { await context.dispatch(relayed: last) }
        let durable = !Task.isCancelled
        var acknowledgements: [UInt8] = []
        for delivery in deliveries {
            guard let subject = delivery.ackSubject else { continue }
            NATSCommand.publish(subject: subject, payload: durable ? [] : Array("-NAK".utf8), into: &acknowledgements)
        }
        if !durable {
            for messageID in messageIDs { decoder.forget(messageID) }
        }
        connection.write(acknowledgements)
        count(received: durable ? received : 0, duplicates: duplicates, invalid: invalid, sent: stamps)
    }
}
