import Glibc

/// The body of the control server's I/O thread: one `poll` loop over the listening socket,
/// the wake-up socket and every connection.
final class ControlIOLoop {
    /// How long a watcher whose stream ended may take to read what is queued for it.
    static let closeGrace: Duration = .seconds(1)

    private let server: ControlServer
    private var connections: [ControlConnection] = []
    private var readBuffer = [UInt8](repeating: 0, count: 64 << 10)

    init(server: ControlServer) {
        self.server = server
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
            var descriptors = [pollfd(fd: server.wakeRead, events: Int16(POLLIN), revents: 0)]
            descriptors.append(pollfd(fd: deadline == nil ? server.listener : -1, events: Int16(POLLIN), revents: 0))
            for connection in connections {
                let interest = connection.interest
                descriptors.append(pollfd(fd: interest == nil ? -1 : connection.descriptor, events: interest ?? 0, revents: 0))
            }
            let closing = connections.contains { $0.closeDeadline != nil }
            let timeout: Int32 = deadline == nil && !closing ? -1 : 10
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

    private func acceptConnections() {
        while let descriptor = UnixSocket.accept(from: server.listener) {
            guard connections.count < server.limits.maximumClients else {
                let line = ControlReply.error(.tooManyClients(limit: server.limits.maximumClients))
                _ = line.withUnsafeBytes { UnixSocket.send(descriptor, $0) }
                Glibc.close(descriptor)
                server.count { $0.refused += 1 }
                continue
            }
            connections.append(ControlConnection(descriptor: descriptor, limits: server.limits))
            server.count { statistics in
                statistics.accepted += 1
                statistics.clients += 1
            }
        }
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
