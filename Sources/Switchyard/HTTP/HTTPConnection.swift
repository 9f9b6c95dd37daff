import SwitchyardIO

/// One client connection, served on the event loop by its ``HTTPHost``.
///
/// Answers one request at a time, in order: pipelined requests wait in the parser (which
/// stops the reads past ``HTTPLimits/readAhead``). A dispatch's response and an event
/// stream's bytes come in through the outbox from tasks; everything else happens on the
/// loop's thread.
final class HTTPConnection: StreamHandler {
    let channel: any StreamChannel
    let outbox: ControlOutbox
    var parser: HTTPRequestParser
    private unowned let host: HTTPHost
    /// A dispatch is in flight: no request is taken until its response is queued.
    var awaitingResponse = false
    /// The task streaming events to this connection.
    var stream: Task<Void, Never>?
    /// Close once the outbox is sent: the response said `Connection: close`, or a request
    /// failed.
    var closing = false
    /// A send failed or the peer ended its side.
    private(set) var outputBroken = false
    private(set) var inputEnded = false
    /// When the connection last received bytes or sent some, for the idle timeout.
    var lastActivity = ContinuousClock.now
    /// When the request being received began, for the request timeout.
    var requestStarted: ContinuousClock.Instant?
    /// The timer that looks at the connection again at its next deadline.
    var timer: (id: TimerID, due: ContinuousClock.Instant)?

    init(channel: any StreamChannel, limits: HTTPLimits, host: HTTPHost) {
        self.channel = channel
        self.host = host
        outbox = ControlOutbox(capacity: limits.streamBufferBytes)
        parser = HTTPRequestParser(limits: limits)
    }

    func received(_ bytes: UnsafeRawBufferPointer) {
        let now = ContinuousClock.now
        lastActivity = now
        // A streaming client has nothing more to say; what it sends is read (to see it close)
        // and dropped.
        guard stream == nil else { return }
        parser.append(bytes)
        if requestStarted == nil, parser.isInsideRequest { requestStarted = now }
        host.service(self)
    }

    func receivedEnd(error: IOError?) {
        inputEnded = true
        if error != nil { breakOutput() }
        host.service(self)
    }

    func writable() {
        host.service(self)
    }

    func hungUp() {
        host.service(self)
    }

    /// Whether the connection waits for nothing but the next request.
    var isIdle: Bool { !awaitingResponse && stream == nil && outbox.pendingCount == 0 && requestStarted == nil }

    /// Whether the connection has nothing left to do and can close.
    var isDone: Bool {
        if outputBroken || channel.isHungUp { return true }
        if closing { return !awaitingResponse && outbox.pendingCount == 0 }
        if stream != nil { return inputEnded }
        // The peer will send no more: close once every answer it can get is sent.
        return inputEnded && !awaitingResponse && outbox.pendingCount == 0
    }

    func updateInterest(readAhead: Int) {
        channel.isReading = !inputEnded && (stream != nil || (!closing && parser.bufferedCount < readAhead))
        channel.wantsWritable = !outputBroken && outbox.pendingCount > 0
    }

    /// Sends what the outbox holds, as far as the socket takes it.
    func flush() {
        guard !outputBroken else { return }
        var failed = false
        let sent = outbox.flush { bytes in
            guard let sent = channel.write(bytes) else {
                failed = true
                return 0
            }
            return sent
        }
        if failed { breakOutput() }
        if sent > 0 { lastActivity = ContinuousClock.now }
    }

    /// Closes the socket and ends the stream; a dispatch in flight still completes, and its
    /// response is discarded.
    func close() {
        stream?.cancel()
        outbox.close()
        channel.close()
    }

    private func breakOutput() {
        outputBroken = true
        outbox.close()
    }
}
