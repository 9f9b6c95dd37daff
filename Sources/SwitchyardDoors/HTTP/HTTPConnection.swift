import SwitchyardIO

/// One client connection, served on the event loop by its ``HTTPHost``.
///
/// Answers one request at a time, in order: pipelined requests wait in the parser (reads stop
/// past ``HTTPLimits/readAhead``, or past the body being read when it is longer). A
/// dispatch's response and an event stream's bytes come in through the outbox from tasks;
/// everything else happens on the loop's thread.
final class HTTPConnection: HostedConnection {
    let channel: any StreamChannel
    let outbox: ConnectionOutbox
    var parser: HTTPRequestParser
    unowned let host: HTTPHost
    /// A dispatch is in flight: no request is taken until its response is queued.
    var awaitingResponse = false
    /// The task streaming events to this connection.
    var stream: Task<Void, Never>?
    var producer: Task<Void, Never>? { stream }
    var isStreaming: Bool { stream != nil }
    /// Close once the outbox is sent: the response said `Connection: close`, or a request
    /// failed.
    var closing = false
    /// A send failed or the peer ended its side.
    var outputBroken = false
    private(set) var inputEnded = false
    /// When the connection last received bytes or sent some, for the idle timeout.
    var lastActivity: ContinuousClock.Instant
    /// When the request being received began, for the request timeout.
    var requestStarted: ContinuousClock.Instant?
    /// The timer that looks at the connection again at its next deadline.
    var timer: (id: TimerID, due: ContinuousClock.Instant)?

    init(channel: any StreamChannel, limits: HTTPLimits, budget: OutboxBudget, host: HTTPHost) {
        self.channel = channel
        self.host = host
        lastActivity = host.thread.now
        outbox = ConnectionOutbox(capacity: limits.streamBufferBytes, budget: budget)
        parser = HTTPRequestParser(limits: limits)
    }

    func received(_ bytes: UnsafeRawBufferPointer) {
        let now = host.thread.now
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
        channel.isReading = !inputEnded && (stream != nil || (!closing && parser.bufferedCount < max(readAhead, parser.awaitedBodyLength)))
        channel.wantsWritable = hasOutputWaiting
    }

    /// Sends what the outbox holds, as far as the socket takes it.
    func flush() {
        if sendOutbox() > 0 { lastActivity = host.thread.now }
    }
}
