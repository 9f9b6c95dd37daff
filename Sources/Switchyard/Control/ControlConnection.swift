import Glibc

/// One client connection, owned by the control server's I/O thread.
///
/// It reads while its session wants input, runs the session's steps while its outbox has
/// room, and sends what the outbox holds. A watcher's stream and a dispatch's reply come in
/// through the outbox from tasks; everything else happens on the I/O thread.
final class ControlConnection {
    let descriptor: Int32
    let outbox: ControlOutbox
    var session: ControlSession
    /// The peer closed both directions (`POLLHUP`): nothing written can reach it.
    private(set) var hungUp = false
    /// A send failed: replies are discarded from now on.
    private(set) var outputBroken = false
    /// The watcher's stream ended or it was dropped: close once the outbox is sent, or at
    /// this time if the client stops reading it (each read moves it on).
    var closeDeadline: ContinuousClock.Instant?
    /// The task streaming to a watching connection.
    var watcher: Task<Void, Never>?
    /// When the connection last received bytes or had anything to do, for the idle timeout.
    var lastActivity = ContinuousClock.now

    init(descriptor: Int32, limits: ControlLimits) {
        self.descriptor = descriptor
        self.outbox = ControlOutbox(capacity: limits.watcherBufferBytes)
        self.session = ControlSession(maximumLineLength: limits.maximumLineLength)
    }

    /// The `poll` events of interest; `nil` when the descriptor should not be polled now
    /// (a hung-up peer would otherwise report `POLLHUP` on every call).
    var interest: Int16? {
        var events: Int16 = 0
        if session.wantsInput(readAhead: ControlLimits.readAhead) { events |= Int16(POLLIN) }
        if !outputBroken, outbox.pendingCount > 0 { events |= Int16(POLLOUT) }
        if events == 0, hungUp || outputBroken { return nil }
        return events
    }

    /// Reads what the socket holds, up to the session's read-ahead, into the session.
    func read(into buffer: inout [UInt8], revents: Int16) {
        if revents & Int16(POLLHUP) != 0 { hungUp = true }
        if revents & Int16(POLLERR) != 0 { breakOutput() }
        while session.wantsInput(readAhead: ControlLimits.readAhead) {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count > 0 {
                lastActivity = ContinuousClock.now
                buffer.withUnsafeBytes { session.receive(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
                continue
            }
            if count == 0 {
                session.receiveEnd()
            } else if errno == EINTR {
                continue
            } else if errno != EAGAIN, errno != EWOULDBLOCK {
                session.receiveEnd()
                breakOutput()
            }
            return
        }
    }

    /// Sends what the outbox holds, as far as the socket takes it.
    func flush() {
        guard !outputBroken else { return }
        var failed = false
        let sent = outbox.flush { bytes in
            guard let sent = UnixSocket.send(descriptor, bytes) else {
                failed = true
                return 0
            }
            return sent
        }
        if failed { breakOutput() }
        // A closing watcher that still reads gets the time it needs for its last lines.
        if sent > 0, closeDeadline != nil { closeDeadline = ContinuousClock.now.advanced(by: ControlIOLoop.closeGrace) }
    }

    /// Whether the connection has nothing left to do and can close.
    var isDone: Bool {
        if session.isWatching {
            guard let closeDeadline else { return hungUp || outputBroken }
            return hungUp || outputBroken || outbox.pendingCount == 0 || ContinuousClock.now >= closeDeadline
        }
        return session.isFinished && (outputBroken || outbox.pendingCount == 0)
    }

    /// Whether a request connection has nothing in flight and nothing to send, so a stopping
    /// server may close it.
    var isIdle: Bool {
        !session.isWatching && !session.isBusy && (outputBroken || outbox.pendingCount == 0)
    }

    /// Whether the connection has waited for a request longer than `timeout`: it is not
    /// watching, has nothing in flight or to send, and has received nothing since.
    func isIdle(longerThan timeout: Duration, now: ContinuousClock.Instant) -> Bool {
        guard isIdle, closeDeadline == nil else {
            lastActivity = now
            return false
        }
        return now - lastActivity >= timeout
    }

    /// Closes the socket and cancels the watcher; an in-flight dispatch still completes, and
    /// its reply is discarded.
    func close() {
        watcher?.cancel()
        outbox.close()
        Glibc.close(descriptor)
    }

    private func breakOutput() {
        outputBroken = true
        outbox.close()
    }
}
