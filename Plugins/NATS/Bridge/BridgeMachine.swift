import SwitchyardBus

/// Everything the bridge decides without I/O: what to write after a connect, where each
/// incoming message goes (an action to dispatch, a publish acknowledgement, a JetStream API
/// reply, the end of a pull request), what to send as actions come in, and what to retry
/// as time passes.
///
/// The bridge holds it under a lock, feeds it events and the time (a `Duration` since the
/// bridge started) and carries out its ``Effects``; tests feed it the same way.
struct BridgeMachine: Sendable {
    private enum Phase: Sendable, Hashable {
        case disconnected
        case settingUp(deadline: Duration, token: String)
        case ready
    }

    /// The subscription id of the reply inbox.
    static let inboxSID = "1"

    let configuration: Configuration
    private var phase = Phase.disconnected
    private var outbox: Outbox
    private var pulls: PullRequests
    private var setup: JetStreamSetup?
    private var inbox: String?
    /// `<inbox>.`, as text and as bytes: built once per connection, not per publish and acknowledgement.
    private var inboxPrefix: (text: String, bytes: [UInt8])?
    private var requests: UInt64 = 0
    private var maxPayload = NATSServerInfo.defaultMaxPayload
    private var dispatching = false
    private var stopping = false
    /// Actions handed to the server (core) or stored by it (JetStream).
    private(set) var publishedCount = 0
    /// Actions never sent because they exceed `max_payload`, or refused by the server.
    private(set) var failedCount = 0
    /// Publishes are getting "no responders" and being retried; cleared by the next acknowledgement.
    private var awaitingStream = false
    /// Whether the stream refuses to store (full under `discard: new`): reported once per
    /// episode, which ends with the next stored publish.
    private var streamRefusing = false

    /// Creates a disconnected machine.
    init(configuration: Configuration) {
        self.configuration = configuration
        outbox = Outbox(capacity: configuration.capacity, overflow: configuration.overflow,
                        window: configuration.mode == .jetstream ? configuration.window : nil)
        pulls = PullRequests(batch: configuration.batch, expires: configuration.expires)
    }

    /// Whether the bridge is connected and set up.
    var isReady: Bool { phase == .ready }
    /// Actions held: waiting, and sent but unacknowledged.
    var heldCount: Int { outbox.count }
    /// Actions dropped because the outgoing buffer was full.
    var droppedCount: Int { outbox.droppedCount }

    // MARK: Connection lifecycle

    /// The handshake finished: subscribe, and set JetStream up or start sending.
    mutating func connected(maxPayload: Int, inbox: String, now: Duration) -> Effects {
        var effects = Effects()
        self.maxPayload = maxPayload
        self.inbox = inbox
        inboxPrefix = (inbox + ".", Array((inbox + ".").utf8))
        switch configuration.mode {
        case .core:
            for (offset, pattern) in configuration.subscriptions.enumerated() {
                NATSCommand.subscribe(subject: pattern.description, sid: String(offset + 2), into: &effects.bytes)
            }
            becomeReady(now: now, effects: &effects)
        case .jetstream:
            NATSCommand.subscribe(subject: inbox + ".*", sid: Self.inboxSID, into: &effects.bytes)
            guard let stream = configuration.stream else { break }
            var setup = JetStreamSetup(stream: stream, consumer: configuration.consumer, published: configuration.published)
            let step = setup.start()
            self.setup = setup
            follow(step, now: now, effects: &effects)
        }
        return effects
    }

    /// The server's limits changed.
    mutating func infoChanged(maxPayload: Int) {
        self.maxPayload = maxPayload
    }

    /// The connection is gone: hold everything until the next one.
    mutating func disconnected() {
        phase = .disconnected
        outbox.close()
        pulls.reset()
        setup = nil
        inbox = nil
        inboxPrefix = nil
        dispatching = false
    }

    /// The connection's output is congested: hold actions until ``drained(now:)``.
    mutating func congested() {
        outbox.pause()
    }

    /// The congestion is over.
    mutating func drained(now: Duration) -> Effects {
        var effects = Effects()
        if phase == .ready { send(outbox.open(now: now), now: now, effects: &effects) }
        return effects
    }

    /// The bus is stopping: no more pull requests.
    mutating func stop() {
        stopping = true
    }

    // MARK: Actions going out

    /// A local action to publish.
    mutating func submit(_ message: OutgoingMessage, now: Duration) -> Effects {
        var effects = Effects()
        submit(message, now: now, into: &effects)
        return effects
    }

    /// A local action to publish, its effects added to `effects`: a run of actions is
    /// submitted into one set of effects, its bytes written at once.
    mutating func submit(_ message: OutgoingMessage, now: Duration, into effects: inout Effects) {
        if message.size > maxPayload {
            reportOversized(message, effects: &effects)
            if configuration.mode == .jetstream { effects.settled.append(message.actionID) }
            return
        }
        if configuration.mode == .core, outbox.passesStraightThrough {
            // Nothing waits and nothing is acknowledged: the outbox would hand it straight back.
            message.encode(replyTo: nil, into: &effects.bytes)
            publishedCount += 1
            return
        }
        let admission = outbox.submit(message, now: now)
        if admission.startsOverflow { effects.reports.append(.overflow(dropped: outbox.droppedCount)) }
        send(admission.send, now: now, effects: &effects)
    }

    /// A run of local actions encoded together, its effects added to `effects`. In core mode,
    /// with nothing waiting in the outbox and every message within `max_payload`, the run's
    /// operations are the output as they are; otherwise each action is submitted as
    /// ``submit(_:now:into:)`` does.
    mutating func submit(_ run: OutgoingRun, now: Duration, into effects: inout Effects) {
        if configuration.mode == .core, let operations = run.operations, outbox.passesStraightThrough, run.largest <= maxPayload {
            if effects.bytes.isEmpty {
                effects.bytes = operations
            } else {
                effects.bytes += operations
            }
            publishedCount += run.count
            return
        }
        for message in run.messages { submit(message, now: now, into: &effects) }
    }

    private mutating func send(_ messages: [OutgoingMessage], now: Duration, effects: inout Effects) {
        var queue = messages[...]
        while let message = queue.popFirst() {
            if message.size > maxPayload {
                reportOversized(message, effects: &effects)
                if configuration.mode == .jetstream {
                    effects.settled.append(message.actionID)
                    queue += outbox.reject(message.actionID, now: now).send
                }
                continue
            }
            switch configuration.mode {
            case .core:
                message.encode(replyTo: nil, into: &effects.bytes)
                publishedCount += 1
            case .jetstream:
                if let inboxPrefix {
                    message.encode(replyPrefix: inboxPrefix.bytes, into: &effects.bytes)
                } else {
                    message.encode(replyTo: nil, into: &effects.bytes)
                }
            }
        }
    }

    private mutating func reportOversized(_ message: OutgoingMessage, effects: inout Effects) {
        failedCount += 1
        effects.reports.append(.oversized(type: message.type, id: message.actionID, size: message.size, maxPayload: maxPayload))
    }

    // MARK: Messages coming in

    /// A message from the server.
    mutating func received(_ message: NATSMessage, now: Duration) -> Effects {
        var effects = Effects()
        received(message, now: now, into: &effects)
        return effects
    }

    /// A message from the server, its effects added to `effects`: a run of messages is fed
    /// in without an array of effects per message.
    mutating func received(_ message: NATSMessage, now: Duration, into effects: inout Effects) {
        switch configuration.mode {
        case .core:
            if message.sid != Self.inboxSID { deliver(message, ackSubject: nil, effects: &effects) }
        case .jetstream:
            guard message.sid == Self.inboxSID, let inboxPrefix else { break }
            if let reply = message.replyTo, reply.hasPrefix("$JS.ACK.") {
                pulls.delivered()
                if configuration.consumer?.filterSubject == nil,
                    !configuration.subscriptions.contains(where: { $0.matches(message.subject) })
                {
                    NATSCommand.publish(subject: reply, payload: [], into: &effects.bytes)
                } else {
                    deliver(message, ackSubject: reply, effects: &effects)
                }
                pullIfIdle(now: now, effects: &effects)
            } else if message.subject.hasPrefix(inboxPrefix.text) {
                let token = String(message.subject.utf8.dropFirst(inboxPrefix.bytes.count)) ?? ""
                reply(token: token, message: message, now: now, effects: &effects)
            }
        }
    }

    private mutating func deliver(_ message: NATSMessage, ackSubject: String?, effects: inout Effects) {
        dispatching = true
        effects.deliveries.append(Delivery(message: message, ackSubject: ackSubject))
    }

    private mutating func reply(token: String, message: NATSMessage, now: Duration, effects: inout Effects) {
        if token.hasPrefix("r") {
            guard case .settingUp(_, let expected) = phase, expected == token, var setup else { return }
            let step = setup.handle(JetStreamReply(message))
            self.setup = setup
            follow(step, now: now, effects: &effects)
        } else if token.hasPrefix("f") {
            switch message.status {
            case 404, 408:
                pulls.ended(token: token)
            case 409:
                let reason = message.headers?.statusDescription ?? ""
                if reason.lowercased().contains("consumer deleted") {
                    // The first reason to close in a run of messages is the one reported.
                    effects.close = effects.close ?? "the consumer was deleted"
                    return
                }
                pulls.ended(token: token)
            default:
                return
            }
            pullIfIdle(now: now, effects: &effects)
        } else if let id = UInt64(token) {
            acknowledgement(id, reply: JetStreamReply(acknowledgement: message), now: now, effects: &effects)
        }
    }

    private mutating func acknowledgement(_ id: UInt64, reply: JetStreamReply, now: Duration, effects: inout Effects) {
        switch reply {
        case .success(let acknowledgement):
            awaitingStream = false
            if streamRefusing {
                streamRefusing = false
                effects.reports.append(.warning("JetStream stores publishes again"))
            }
            // A resent action may be acknowledged twice; it was published once.
            guard let message = outbox.unacknowledged(id) else { return }
            if acknowledgement["duplicate"] == true, !message.isResend {
                // The stream already holds this message id from before: the bus's action
                // ids started again (a restart without its journal), and JetStream kept the
                // older action instead of this one.
                failedCount += 1
                effects.reports.append(.duplicateID(type: message.type, id: id))
            } else {
                publishedCount += 1
            }
            effects.settled.append(id)
            send(outbox.acknowledge(id, now: now), now: now, effects: &effects)
        case .failure(let error) where error.code == 503 && error.errorCode == JetStreamAPIError.storeFailed:
            // The stream is full and discards new messages (or another limit refuses them):
            // the action stays and is retried when it expires, as store-and-forward keeps
            // everything, but the refusal is told (once per episode), never waited out silently.
            if !streamRefusing, outbox.unacknowledged(id) != nil {
                streamRefusing = true
                effects.reports.append(.refused(id: id, reason: "\(error.description) (error \(error.errorCode))"))
            }
        case .failure(let error) where error.code == 503:
            // JetStream is busy or electing a leader: the publish is retried when it expires.
            break
        case .failure(let error):
            refuse(id, reason: "\(error.description) (error \(error.errorCode))", now: now, effects: &effects)
        case .noResponders:
            // Set-up saw a stream capture the subject, so nobody answering is a server that is
            // still loading its streams after a restart (or a stream deleted under us): the
            // publish is retried when it expires, as a 503 is, and nothing is given up. Told
            // once per episode, since a stream that stays away holds the window full.
            if !awaitingStream {
                awaitingStream = true
                effects.reports.append(.warning("JetStream has no responder for the subject of action \(id) (the server is loading its streams, or the stream was deleted): publishes are retried until a stream answers"))
            }
        }
    }

    private mutating func refuse(_ id: UInt64, reason: String, now: Duration, effects: inout Effects) {
        let (rejected, more) = outbox.reject(id, now: now)
        if let rejected {
            failedCount += 1
            effects.settled.append(id)
            effects.reports.append(.rejected(type: rejected.type, id: id, reason: reason))
        }
        send(more, now: now, effects: &effects)
    }

    /// The bridge dispatched the deliveries it was given and acknowledged them.
    mutating func finishedDispatching(now: Duration) -> Effects {
        var effects = Effects()
        dispatching = false
        pullIfIdle(now: now, effects: &effects)
        return effects
    }

    // MARK: Time

    /// The passing of time: API requests that got no reply, publishes to send again, pull
    /// requests to renew.
    mutating func tick(now: Duration) -> Effects {
        var effects = Effects()
        switch phase {
        case .settingUp(let deadline, _) where now >= deadline:
            effects.close = "the JetStream API did not answer within \(configuration.requestTimeout)"
        case .ready:
            send(outbox.expired(now: now, timeout: configuration.requestTimeout), now: now, effects: &effects)
            pullIfIdle(now: now, effects: &effects)
        case .settingUp, .disconnected:
            break
        }
        return effects
    }

    // MARK: Helpers

    private mutating func follow(_ step: JetStreamSetup.Step, now: Duration, effects: inout Effects) {
        switch step {
        case .request(let subject, let body):
            requests += 1
            let token = "r\(requests)"
            NATSCommand.publish(subject: subject, replyTo: inbox.map { "\($0).\(token)" }, payload: body, into: &effects.bytes)
            phase = .settingUp(deadline: now + configuration.requestTimeout, token: token)
        case .done(let warnings):
            effects.reports += warnings.map(BridgeReport.warning)
            setup = nil
            becomeReady(now: now, effects: &effects)
        case .failed(let reason):
            effects.close = effects.close ?? reason
        }
    }

    private mutating func becomeReady(now: Duration, effects: inout Effects) {
        phase = .ready
        effects.becameReady = true
        send(outbox.open(now: now), now: now, effects: &effects)
        pullIfIdle(now: now, effects: &effects)
    }

    private mutating func pullIfIdle(now: Duration, effects: inout Effects) {
        guard phase == .ready, !dispatching, !stopping, let stream = configuration.stream,
            let consumer = configuration.consumer, let inbox, let request = pulls.next(now: now)
        else { return }
        NATSCommand.publish(subject: "$JS.API.CONSUMER.MSG.NEXT.\(stream.name).\(consumer.durable)",
                            replyTo: "\(inbox).\(request.token)", payload: request.body, into: &effects.bytes)
    }
}
