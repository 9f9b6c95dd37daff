import SwitchyardIO

/// A client connection a ``ConnectionHost`` serves on the event loop: a socket, the outbox
/// its tasks write into, and whether sending still works.
///
/// The control socket's and the HTTP server's connections speak different protocols; how
/// their bytes go out, when the host looks at them again and how they close is this one
/// piece.
protocol HostedConnection: StreamHandler {
    /// The host that serves the connection.
    associatedtype Host: ConnectionHost where Host.Connection == Self

    /// The socket.
    var channel: any StreamChannel { get }
    /// The bytes waiting to go out, written by the loop and by the connection's tasks.
    var outbox: ConnectionOutbox { get }
    /// Who serves the connection.
    var host: Host { get }
    /// A send failed (or reading ended with an error): what is queued is discarded from now on.
    var outputBroken: Bool { get set }
    /// The task writing into the outbox (a watcher, an event stream), cancelled on close.
    var producer: Task<Void, Never>? { get }
    /// Whether the connection streams (counted among the server's streams while open).
    var isStreaming: Bool { get }
    /// The timer that looks at the connection again at its next deadline.
    var timer: (id: TimerID, due: ContinuousClock.Instant)? { get set }
    /// Sends what the outbox holds; a connection may note the time it sent something.
    func flush()
}

extension HostedConnection {
    func writable() {
        host.service(self)
    }

    func hungUp() {
        host.service(self)
    }

    /// Whether the loop should hear when the socket takes more bytes: replies wait and can
    /// still be sent.
    var hasOutputWaiting: Bool { !outputBroken && outbox.pendingCount > 0 }

    /// Sends what the outbox holds, as far as the socket takes it; a failed send breaks the
    /// output. Returns the bytes sent.
    func sendOutbox() -> Int {
        guard !outputBroken else { return 0 }
        var failed = false
        let sent = outbox.flush { bytes in
            guard let sent = channel.write(bytes) else {
                failed = true
                return 0
            }
            return sent
        }
        if failed { breakOutput() }
        return sent
    }

    /// Discards what is queued and refuses more: the client can no longer be written to.
    func breakOutput() {
        outputBroken = true
        outbox.close()
    }

    /// Closes the socket and cancels the producer; a dispatch in flight still completes, and
    /// its reply is discarded.
    func close() {
        producer?.cancel()
        outbox.close()
        channel.close()
    }
}
