import SwitchyardIO

/// One client connection, served on the event loop by its ``ControlHost``.
///
/// It reads while its session wants input, runs the session's steps while its outbox has
/// room, and sends what the outbox holds. A watcher's stream and a dispatch's reply come in
/// through the outbox from tasks; everything else happens on the loop's thread.
final class ControlConnection: HostedConnection {
    let channel: any StreamChannel
    let outbox: ConnectionOutbox
    var session: ControlSession
    unowned let host: ControlHost
    /// A send failed: replies are discarded from now on.
    var outputBroken = false
    /// The watcher's stream ended or it was dropped: close once the outbox is sent, or at
    /// this time if the client stops reading it (each read moves it on).
    var closeDeadline: ContinuousClock.Instant?
    /// The timer that looks at the connection again at ``closeDeadline``.
    var timer: (id: TimerID, due: ContinuousClock.Instant)?
    /// The task streaming to a watching connection.
    var watcher: Task<Void, Never>?
    var producer: Task<Void, Never>? { watcher }
    var isStreaming: Bool { session.isWatching }
    /// When the connection last received bytes or had anything to do, for the idle timeout.
    var lastActivity: ContinuousClock.Instant
    /// Told what became of each of the connection's dispatches; every dispatch's inbox entry
    /// carries it.
    let dispatchCompletion: StoreCompletion

    init(channel: any StreamChannel, limits: ControlLimits, host: ControlHost, server: ControlServer) {
        self.channel = channel
        self.host = host
        lastActivity = host.thread.now
        let outbox = ConnectionOutbox(capacity: limits.watcherBufferBytes)
        self.outbox = outbox
        self.session = ControlSession(maximumLineLength: limits.maximumLineLength)
        self.dispatchCompletion = .outcome(ControlHost.dispatchCompletion(outbox: outbox, server: server))
    }

    /// The peer closed both directions: nothing written can reach it.
    var peerHungUp: Bool { channel.isHungUp }

    func received(_ bytes: UnsafeRawBufferPointer) {
        lastActivity = host.thread.now
        session.receive(bytes)
        channel.isReading = session.wantsInput(readAhead: ControlLimits.readAhead)
        host.service(self)
    }

    func receivedEnd(error: IOError?) {
        session.receiveEnd()
        if error != nil { breakOutput() }
        host.service(self)
    }

    /// Reads while the session wants input and asks to hear when the socket takes more bytes
    /// while replies wait.
    func updateInterest() {
        channel.isReading = session.wantsInput(readAhead: ControlLimits.readAhead)
        channel.wantsWritable = hasOutputWaiting
    }

    /// Sends what the outbox holds, as far as the socket takes it.
    func flush() {
        let sent = sendOutbox()
        // A closing watcher that still reads gets the time it needs for its last lines.
        if sent > 0, let deadline = closeDeadline {
            closeDeadline = max(deadline, host.thread.now.advanced(by: ControlHost.closeGrace))
        }
    }

    /// Whether the connection has nothing left to do and can close.
    var isDone: Bool {
        if session.isWatching {
            guard let closeDeadline else { return peerHungUp || outputBroken }
            return peerHungUp || outputBroken || outbox.pendingCount == 0 || host.thread.now >= closeDeadline
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
}
