import Glibc

/// The body of the control server's I/O thread: one `poll` loop over the listening socket,
/// the wake-up socket and every connection.
final class ControlIOLoop {
    /// How long a watcher whose stream ended may take to read what is queued for it.
    static let closeGrace: Duration = .seconds(1)

    /// How long accepting pauses after `accept` failed (out of descriptors, say).
    static let acceptPause: Duration = .milliseconds(100)

    private let server: ControlServer
    private var connections: [ControlConnection] = []
    private var readBuffer = [UInt8](repeating: 0, count: 64 << 10)
    /// Held open to be given up when descriptors run out (see ``acceptConnections()``).
    private var spareDescriptor: Int32
    private var acceptPausedUntil: ContinuousClock.Instant?
    private var loggedDescriptorExhaustion = false
    private var loggedRefusedUsers = Set<UInt32>()
    private let ownUser = geteuid()

    init(server: ControlServer) {
        self.server = server
        self.spareDescriptor = Self.openSpare()
    }

    deinit {
        if spareDescriptor >= 0 { Glibc.close(spareDescriptor) }
    }

    func run() {
        while true {
            let deadline = server.stopDeadline
            if let deadline {
                connections.removeAll { connection in
                    guard connection.isDone || connection.isIdle || ContinuousClock.now >= deadline else { return false }
                    close(connection)
                    return true
                }
                if connections.isEmpty { break }
            }
            let idleDue = deadline == nil ? closeIdleConnections() : nil
            if let paused = acceptPausedUntil, ContinuousClock.now >= paused { acceptPausedUntil = nil }
            let accepting = deadline == nil && acceptPausedUntil == nil
            var descriptors = [pollfd(fd: server.wakeRead, events: Int16(POLLIN), revents: 0)]
            descriptors.append(pollfd(fd: accepting ? server.listener : -1, events: Int16(POLLIN), revents: 0))
            for connection in connections {
                let interest = connection.interest
                descriptors.append(pollfd(fd: interest == nil ? -1 : connection.descriptor, events: interest ?? 0, revents: 0))
            }
            let closing = connections.contains { $0.closeDeadline != nil }
            var timeout: Int32 = deadline == nil && !closing ? -1 : 10
            for due in [idleDue, acceptPausedUntil.map { $0 - ContinuousClock.now }].compactMap({ $0 }) {
                let milliseconds = Int32(clamping: max(1, due.components.seconds * 1000 + due.components.attoseconds / 1_000_000_000_000_000 + 1))
                timeout = timeout < 0 ? milliseconds : min(timeout, milliseconds)
            }
            guard poll(&descriptors, nfds_t(descriptors.count), timeout) >= 0 || errno == EINTR else {
                server.log.write(.error, "control: the socket server stopped: poll failed: \(SystemError.text(errno))")
                break
            }
            if descriptors[0].revents != 0 { server.clearWake() }
            for (connection, descriptor) in zip(connections, descriptors.dropFirst(2)) where descriptor.revents != 0 {
                if descriptor.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                    connection.read(into: &readBuffer, revents: descriptor.revents)
                }
            }
            if descriptors[1].revents != 0 { acceptConnections() }
            connections.removeAll { connection in
                service(connection, stopping: deadline != nil)
                guard connection.isDone else { return false }
                close(connection)
                return true
            }
        }
        for connection in connections { close(connection) }
        server.markExited()
    }

    /// Accepts every pending connection. A user the bus does not serve gets
    /// `permission-denied`; one over the client limit gets `too-many-clients`. Out of
    /// descriptors (`EMFILE`/`ENFILE`), the spare descriptor is given up for a moment so the
    /// waiting client can be accepted, told `too-many-clients` and closed (it would otherwise
    /// hang in the backlog while `poll` reports the listener ready forever), and accepting
    /// pauses briefly so the loop cannot spin.
    private func acceptConnections() {
        while true {
            switch UnixSocket.accept(from: server.listener) {
            case .none:
                return
            case .failed(let code) where code == EMFILE || code == ENFILE:
                server.count { $0.refused += 1 }
                if !loggedDescriptorExhaustion {
                    loggedDescriptorExhaustion = true
                    server.log.write(.warning, "control: out of file descriptors (\(SystemError.text(code))); refusing connections with too-many-clients until some close")
                }
                refuseWithSpareDescriptor()
                acceptPausedUntil = ContinuousClock.now.advanced(by: Self.acceptPause)
                return
            case .failed(let code):
                server.log.write(.warning, "control: accept failed: \(SystemError.text(code)); pausing")
                acceptPausedUntil = ContinuousClock.now.advanced(by: Self.acceptPause)
                return
            case .connection(let descriptor):
                loggedDescriptorExhaustion = false
                admit(descriptor)
            }
        }
    }

    private func admit(_ descriptor: Int32) {
        if let user = PeerCredentials.userID(of: descriptor), user != ownUser, !server.limits.allowedUserIDs.contains(user) {
            refuse(descriptor, with: .permissionDenied(userID: user))
            if loggedRefusedUsers.insert(user).inserted {
                server.log.write(.warning, "control: refused a connection from uid \(user) (not the bus's user; see bus.control.allowUIDs)")
            }
            return
        }
        guard connections.count < server.limits.maximumClients else {
            refuse(descriptor, with: .tooManyClients(limit: server.limits.maximumClients))
            return
        }
        connections.append(ControlConnection(descriptor: descriptor, limits: server.limits))
        server.count { statistics in
            statistics.accepted += 1
            statistics.clients += 1
        }
    }

    private func refuse(_ descriptor: Int32, with error: ControlError) {
        let line = ControlReply.error(error)
        _ = line.withUnsafeBytes { UnixSocket.send(descriptor, $0) }
        Glibc.close(descriptor)
        server.count { $0.refused += 1 }
    }

    private func refuseWithSpareDescriptor() {
        guard spareDescriptor >= 0 else { return }
        Glibc.close(spareDescriptor)
        spareDescriptor = -1
        if case .connection(let descriptor) = UnixSocket.accept(from: server.listener) {
            let line = ControlReply.error(.outOfDescriptors)
            _ = line.withUnsafeBytes { UnixSocket.send(descriptor, $0) }
            Glibc.close(descriptor)
        }
        spareDescriptor = Self.openSpare()
    }

    private static func openSpare() -> Int32 {
        open("/dev/null", O_RDONLY | O_CLOEXEC)
    }

    /// Closes request connections that have waited longer than the idle timeout for a
    /// request, telling them why; returns how long until the next one may be due.
    private func closeIdleConnections() -> Duration? {
        let timeout = server.limits.idleTimeout
        let now = ContinuousClock.now
        var nextDue: Duration?
        connections.removeAll { connection in
            guard connection.isIdle(longerThan: timeout, now: now) else {
                if connection.isIdle {
                    let remaining = timeout - (now - connection.lastActivity)
                    nextDue = min(nextDue ?? remaining, remaining)
                }
                return false
            }
            let line = ControlReply.error(.idleTimeout(timeout))
            _ = line.withUnsafeBytes { UnixSocket.send(connection.descriptor, $0) }
            server.count { $0.idleClosed += 1 }
            close(connection)
            return true
        }
        return nextDue
    }

    /// Collects the connection's events, runs its steps while its replies fit, and sends.
    private func service(_ connection: ControlConnection, stopping: Bool) {
        if let events = connection.outbox.takeEvents() {
            for _ in 0..<events.completions { connection.session.completed() }
            if let reason = events.dropped {
                server.count { $0.watchersDropped += 1 }
                server.log.write(.warning, "control: dropped a watcher: \(reason)")
            }
            // A dropped watcher gets a moment to read its last line; it is closed either way.
            if events.dropped != nil || events.finished, connection.closeDeadline == nil {
                connection.closeDeadline = ContinuousClock.now.advanced(by: Self.closeGrace)
            }
        }
        while !stopping, connection.outbox.pendingCount < ControlLimits.replyHighWater,
              let step = connection.session.nextStep() {
            perform(step, on: connection)
        }
        connection.flush()
    }

    private func perform(_ step: ControlSession.Step, on connection: ControlConnection) {
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
        case .dispatch(let action):
            let direct = backend.dispatch(action) { outcome in
                let reply: [UInt8]
                switch outcome {
                case .dispatched(let id): reply = ControlReply.dispatched(id)
                case .stopping: reply = ControlReply.error(.stopping)
                case .journalFailed(let reason): reply = ControlReply.error(.journalFailed(reason))
                }
                if outcome.sequence == nil { server.count { $0.errors += 1 } }
                outbox.complete(with: reply)
                server.wake()
            }
            if !direct { connection.session.serializeDispatches() }
        case .watch(let pattern, let statePath):
            let watcher = ControlWatcher(
                actions: pattern.map { backend.actions($0, server.limits.watcherBufferActions) },
                states: statePath.map { _ in backend.states() },
                statePath: statePath,
                outbox: outbox,
                limits: server.limits,
                wake: { server.wake() }
            )
            outbox.appendReply(ControlReply.watching(actions: pattern, state: statePath))
            server.count { $0.watchers += 1 }
            connection.watcher = Task { await watcher.run() }
        }
    }

    private func close(_ connection: ControlConnection) {
        connection.flush()
        // Counted before the socket closes, so a client that sees the end sees the count too.
        server.count { statistics in
            statistics.clients -= 1
            if connection.session.isWatching { statistics.watchers -= 1 }
        }
        connection.close()
    }
}
