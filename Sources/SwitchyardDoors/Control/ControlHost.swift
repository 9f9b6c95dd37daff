import Glibc
import SwitchyardIO
import SwitchyardStreams

/// The loop-side half of the control server: accepts clients, runs each connection's steps and
/// sends its replies, all on the event loop's thread.
///
/// Everything here is event-driven — readiness of a socket, the server's outbox signal, or a
/// timer (idle timeout, a closing watcher's grace, the stop deadline) — so an idle server
/// costs nothing and a busy one only touches the connections that have something to do.
final class ControlHost: ConnectionHost {
    /// How long a watcher whose stream ended may take to read what is queued for it.
    static let closeGrace: Duration = .seconds(1)
    /// How long a dropped watcher that stopped reading may take to come back for its
    /// `too-slow` line before the connection closes without it.
    static let dropGrace: Duration = .seconds(30)
    /// How long accepting pauses after `accept` failed (out of descriptors, say).
    static let acceptPause: Duration = .milliseconds(100)
    static let logName = "control"

    let server: ControlServer
    let thread: any HostLoop
    var connections = HostedConnections<ControlConnection>()
    private var idleTimer: (id: TimerID, due: ContinuousClock.Instant)?
    private var loggedRefusedUsers = Set<UInt32>()
    private let ownUser = geteuid()
    /// The dispatches of every connection read in this loop turn and not yet handed to the bus,
    /// in order, as the inbox entries they become, each with its connection's completion; and
    /// where each connection's run of them ends. Kept between turns for their buffers. Only
    /// the loop's thread touches them, one access at a time, so they go without the runtime's
    /// exclusivity checks, which cost three thread-local lookups per dispatch.
    @exclusivity(unchecked) private var pendingDispatches: [StoreInbox<BusAction>.Entry] = []
    @exclusivity(unchecked) private var pendingRuns: [(end: Int, connection: ControlConnection)] = []
    /// The hand-over is due before the loop waits again.
    @exclusivity(unchecked) private var handOverDue = false

    private init(server: ControlServer, thread: any HostLoop) {
        self.server = server
        self.thread = thread
    }

    /// Starts serving `server`'s listener on `thread`. The host keeps itself alive through its
    /// signal handlers and acceptor until it finishes.
    @discardableResult
    static func start(server: ControlServer, on thread: any HostLoop) -> ControlHost {
        let host = ControlHost(server: server, thread: thread)
        host.start(acceptPause: acceptPause, failed: "control: the socket server stopped") { $0.accepted($1) }
        return host
    }

    /// Handles what the acceptor reports. Out of descriptors, the waiting client it accepted
    /// with the spare descriptor is told `too-many-clients` and closed (it would otherwise
    /// hang in the backlog), and the exhaustion is logged once until a connection succeeds.
    private func accepted(_ event: Acceptor.Event) {
        handle(event, refusal: "too-many-clients", admit: admit) { refused in
            if let refused {
                refuse(refused, with: .outOfDescriptors)
            } else {
                server.count { $0.refused += 1 }
            }
        }
    }

    /// Admits a connection, unless its user is not served (`permission-denied`) or the
    /// client limit is reached (`too-many-clients`).
    private func admit(_ descriptor: Int32) {
        if let user = PeerCredentials.userID(of: descriptor), user != ownUser, !server.limits.allowedUserIDs.contains(user) {
            refuse(descriptor, with: .permissionDenied(userID: user))
            if loggedRefusedUsers.insert(user).inserted {
                server.log.write(.warning, "control: refused a connection from uid \(user) (not the bus's user; see bus.control.allowUIDs)")
            }
            return
        }
        guard connections.open.count < server.limits.maximumClients else {
            refuse(descriptor, with: .tooManyClients(limit: server.limits.maximumClients))
            return
        }
        open(descriptor) { refuse($0, with: .outOfDescriptors) }
    }

    func makeConnection(_ channel: any StreamChannel) -> ControlConnection {
        ControlConnection(channel: channel, limits: server.limits, host: self, server: server)
    }

    func opened(_ connection: ControlConnection) {
        armIdleTimer(due: connection.lastActivity.advanced(by: server.limits.idleTimeout))
    }

    static var counts: ConnectionCounts<ControlStatistics, UInt64> { ConnectionCounts(accepted: \.accepted, open: \.clients, streaming: \.watchers, refused: \.refused) }

    private func refuse(_ descriptor: Int32, with error: ControlError) {
        refuse(descriptor, with: ControlReply.error(error))
    }

    /// Collects the connection's events, runs its steps while its replies fit, sends, and
    /// closes it when it is done (or, while stopping, idle or out of time).
    func service(_ connection: ControlConnection) {
        guard isOpen(connection) else { return }
        if let events = connection.outbox.takeEvents() {
            for _ in 0..<events.completions { connection.session.completed() }
            if let reason = events.dropped {
                server.count { $0.watchersDropped += 1 }
                server.log.write(.warning, "control: dropped a watcher: \(reason)")
            }
            // A dropped watcher has stopped reading, so it gets longer to come back for its
            // last line, the `too-slow` error; it is closed either way.
            if events.dropped != nil || events.finished, connection.closeDeadline == nil {
                connection.closeDeadline = thread.now.advanced(by: events.dropped != nil ? Self.dropGrace : Self.closeGrace)
            }
        }
        // The dispatches of a loop turn, of every connection, go to the bus together before the
        // loop waits again, in order (one inbox lock and one wake-up of the reducer a turn,
        // where one a connection woke it as often as connections had input), and are counted
        // once rather than under the counters' lock each; any other step sends and counts the
        // ones before it first, so a `stats` reply counts them and a `state` reply sees them.
        let stopDeadline = connections.stopDeadline
        while stopDeadline == nil, connection.outbox.pendingCount < ControlLimits.replyHighWater,
              let step = connection.session.nextStep() {
            perform(step, on: connection)
        }
        connection.flush()
        let now = thread.now
        if !connection.isIdle || connection.closeDeadline != nil { connection.lastActivity = now }
        if connection.isDone || (stopDeadline.map { connection.isIdle || now >= $0 } ?? false) {
            close(connection)
            return
        }
        connection.updateInterest()
        if let closeDeadline = connection.closeDeadline, connection.timer == nil {
            let id = thread.schedule(at: closeDeadline) { [weak self, weak connection] in
                guard let self, let connection else { return }
                connection.timer = nil
                self.service(connection)
            }
            connection.timer = (id, closeDeadline)
        }
        if stopDeadline == nil, connection.isIdle {
            armIdleTimer(due: connection.lastActivity.advanced(by: server.limits.idleTimeout))
        }
    }

    private func perform(_ step: ControlSession.Step, on connection: ControlConnection) {
        // A dispatch goes with the turn's hand-over, which counts it; any other step hands over
        // the dispatches before it first.
        if case .dispatch(let action) = step {
            gather(action, of: connection)
            return
        }
        handOver()
        server.count { $0.requests += 1 }
        let outbox = connection.outbox
        let backend = server.backend
        let server = self.server
        switch step {
        case .error(let error):
            server.count { $0.errors += 1 }
            outbox.appendReply(ControlReply.error(error))
        case .state(let path):
            if let value = backend.state().value(atPath: path) {
                outbox.appendReply(ControlReply.state(value))
            } else {
                server.count { $0.errors += 1 }
                outbox.appendReply(ControlReply.error(.notFound(path: path)))
            }
        case .stats:
            outbox.appendReply(ControlReply.statistics(backend.statistics()))
        case .dispatch:
            break // gathered above
        case .step:
            guard let steps = backend.steps else {
                server.count { $0.errors += 1 }
                outbox.complete(with: ControlReply.error(.notStepping))
                return
            }
            steps.request { answer in
                switch answer {
                case .replayed(let recorded, let type, let id):
                    outbox.complete(with: ControlReply.stepped(recorded: recorded, type: type, id: id))
                case .finished:
                    server.count { $0.errors += 1 }
                    outbox.complete(with: ControlReply.error(.replayOver))
                }
                server.wake()
            }
        case .watch(let pattern, let statePath, let options):
            let overflow: OverflowPolicy = options.overflow == .dropOldest ? .dropOldest : .dropNewest
            let watcher = ControlWatcher(
                actions: pattern.map { backend.actions($0, options.buffer ?? server.limits.watcherBufferActions, overflow) },
                states: statePath.map { _ in backend.states() },
                statePath: statePath,
                options: options,
                outbox: outbox,
                limits: server.limits,
                wake: { server.wake() }
            )
            outbox.appendReply(ControlReply.watching(actions: pattern, state: statePath))
            server.count { $0.watchers += 1 }
            connection.watcher = Task { await watcher.run() }
        }
    }

    /// Adds a dispatch of `connection` to this turn's hand-over.
    private func gather(_ action: consuming BusAction, of connection: ControlConnection) {
        pendingDispatches.append(StoreInbox.Entry(action: action, completion: connection.dispatchCompletion))
        if let last = pendingRuns.last, last.connection === connection {
            pendingRuns[pendingRuns.count - 1].end = pendingDispatches.count
        } else {
            pendingRuns.append((pendingDispatches.count, connection))
        }
        if !handOverDue {
            handOverDue = true
            // Holds the host until then, so a dispatch read is handed over even when the
            // host finishes in this turn.
            thread.beforeWaiting { [self] in
                handOverDue = false
                handOver()
            }
        }
    }

    /// Hands the dispatches gathered so far to the bus, each with its connection's completion,
    /// which writes each reply into its outbox and wakes the loop, and counts them. A
    /// connection some of whose dispatches wait for room holds its later ones back until they
    /// are answered.
    private func handOver() {
        guard !pendingDispatches.isEmpty else { return }
        let count = pendingDispatches.count
        server.count { $0.requests += UInt64(count) }
        let taken = server.backend.dispatchTurn(&pendingDispatches)
        if taken < count {
            for run in pendingRuns where run.end > taken { run.connection.session.serializeDispatches() }
        }
        pendingRuns.removeAll(keepingCapacity: true)
    }

    /// The completion every dispatch of a connection shares: made once per connection, as
    /// it captures nothing of the action.
    static func dispatchCompletion(outbox: ConnectionOutbox, server: ControlServer) -> @Sendable (DispatchOutcome) -> Void {
        { outcome in
            switch outcome {
            case .dispatched(let id):
                outbox.complete { ControlReply.appendDispatched(id, to: &$0) }
            case .stopping:
                server.count { $0.errors += 1 }
                outbox.complete(with: ControlReply.error(.stopping))
            case .journalFailed(let reason):
                server.count { $0.errors += 1 }
                outbox.complete(with: ControlReply.error(.journalFailed(reason)))
            }
            server.wake()
        }
    }

    /// Makes sure the idle sweep runs by `due`.
    private func armIdleTimer(due: ContinuousClock.Instant) {
        guard connections.stopDeadline == nil else { return }
        if let idleTimer {
            guard due < idleTimer.due else { return }
            thread.cancel(idleTimer.id)
        }
        let id = thread.schedule(at: due) { [weak self] in
            guard let self else { return }
            self.idleTimer = nil
            if let next = self.closeIdleConnections() { self.armIdleTimer(due: next) }
        }
        idleTimer = (id, due)
    }

    /// Closes request connections that have waited longer than the idle timeout for a
    /// request, telling them why; returns when the next one may be due.
    private func closeIdleConnections() -> ContinuousClock.Instant? {
        let timeout = server.limits.idleTimeout
        let now = thread.now
        var nextDue: ContinuousClock.Instant?
        for connection in Array(connections.open.values) {
            guard connection.isIdle(longerThan: timeout, now: now) else {
                if connection.isIdle, connection.closeDeadline == nil {
                    let due = connection.lastActivity.advanced(by: timeout)
                    nextDue = min(nextDue ?? due, due)
                }
                continue
            }
            _ = ControlReply.error(.idleTimeout(timeout)).withUnsafeBytes { connection.channel.write($0) }
            server.count { $0.idleClosed += 1 }
            close(connection)
        }
        return nextDue
    }

    func cancelHostTimers() {
        if let idleTimer { thread.cancel(idleTimer.id) }
        idleTimer = nil
    }
}
