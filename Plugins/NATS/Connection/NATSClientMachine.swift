/// The client side of one NATS connection without any I/O: the handshake, answers to the
/// server's pings, pings of its own to notice a dead server, and the classification of
/// `-ERR`.
///
/// The connection's thread feeds it received bytes and the passing of time (a `Duration`
/// since the connection started), writes the bytes it returns and closes the socket when it
/// says so; tests drive it the same way with made-up bytes and times.
struct NATSClientMachine {
    /// When things must happen.
    struct Timing: Sendable, Hashable {
        /// How long the TCP connect and the handshake may take together. Default: 5 seconds.
        var connectTimeout: Duration = .seconds(5)
        /// How often the client pings a quiet server. Default: 30 seconds.
        var pingInterval: Duration = .seconds(30)
        /// How many pings may go unanswered before the connection counts as stale. Default: 2.
        var maximumPingsOut = 2
    }

    /// Where the connection stands.
    enum Phase: Sendable, Hashable {
        case awaitingInfo
        case awaitingPong
        case connected
        case closed
    }

    /// What the caller must do after an input.
    struct Output: Sendable {
        /// Bytes to write, in order.
        var bytes: [UInt8] = []
        /// Events for the bridge, in order.
        var events: [NATSConnectionEvent] = []
        /// Set when the connection must be closed, with the reason.
        var close: NATSConnectionError?
    }

    private(set) var phase = Phase.awaitingInfo
    private(set) var info: NATSServerInfo?
    private var parser = NATSParser()
    private let options: NATSConnectOptions
    private let timing: Timing
    private var deadline: Duration
    private var pingsOut = 0
    /// For each ping sent since the handshake, in order, whether it was a flush (the server
    /// answers pings in order, so each PONG belongs to the oldest).
    private var pingPurposes: [Bool] = []

    /// Starts a connection at `now`; the handshake must finish by `now + connectTimeout`.
    init(options: NATSConnectOptions, timing: Timing, now: Duration) {
        self.options = options
        self.timing = timing
        deadline = now + timing.connectTimeout
    }

    /// When ``tick(now:)`` must next be called.
    var nextDeadline: Duration { deadline }

    /// Handles bytes from the server.
    mutating func receive(_ bytes: some Collection<UInt8>, now: Duration) -> Output {
        var output = Output()
        guard phase != .closed else { return output }
        let operations: [NATSServerOperation]
        do {
            operations = try parser.parse(bytes)
        } catch {
            return close(.protocolError(error))
        }
        for operation in operations {
            handle(operation, now: now, output: &output)
            if output.close != nil {
                phase = .closed
                break
            }
        }
        return output
    }

    /// Handles the passing of time: the handshake deadline, and pings while connected.
    mutating func tick(now: Duration) -> Output {
        guard now >= deadline else { return Output() }
        switch phase {
        case .awaitingInfo:
            return close(.timeout("waiting for the server's INFO"))
        case .awaitingPong:
            return close(.timeout("waiting for the server to accept CONNECT"))
        case .connected:
            if pingsOut >= timing.maximumPingsOut { return close(.stale(pings: pingsOut)) }
            pingsOut += 1
            pingPurposes.append(false)
            deadline = now + timing.pingInterval
            return Output(bytes: NATSCommand.ping)
        case .closed:
            return Output()
        }
    }

    /// Sends a ping whose answer is reported as ``NATSConnectionEvent/flushed``; nothing
    /// before the handshake finished.
    mutating func flush() -> Output {
        guard phase == .connected else { return Output() }
        pingPurposes.append(true)
        return Output(bytes: NATSCommand.ping)
    }

    private mutating func close(_ error: NATSConnectionError) -> Output {
        phase = .closed
        return Output(close: error)
    }

    private mutating func handle(_ operation: NATSServerOperation, now: Duration, output: inout Output) {
        switch (phase, operation) {
        case (.awaitingInfo, .info(let info)):
            self.info = info
            if info.tlsRequired {
                output.close = .tlsRequired
            } else if !info.headers {
                output.close = .headersUnsupported
            } else {
                NATSCommand.connect(options, into: &output.bytes)
                output.bytes += NATSCommand.ping
                phase = .awaitingPong
            }
        case (.awaitingInfo, _):
            output.close = .protocolError(.unknownOperation("expected INFO first"))
        case (_, .ping):
            output.bytes += NATSCommand.pong
        case (.awaitingPong, .pong):
            phase = .connected
            deadline = now + timing.pingInterval
            output.events.append(.connected(info ?? NATSServerInfo()))
        case (.connected, .pong):
            pingsOut = 0
            if !pingPurposes.isEmpty, pingPurposes.removeFirst() { output.events.append(.flushed) }
        case (_, .info(let info)):
            self.info = info
            if phase == .connected { output.events.append(.infoChanged(info)) }
        case (_, .ok):
            break
        case (_, .error(let message)):
            if Self.isAuthorizationError(message) {
                output.close = .authorization(message)
            } else if phase == .connected, Self.keepsConnectionOpen(message) {
                output.events.append(.serverError(message))
            } else {
                output.close = .serverError(message)
            }
        case (.connected, .message(let message)):
            output.events.append(.message(message))
        case (_, .message), (_, .pong):
            break
        }
    }

    /// `-ERR` messages after which the server keeps the connection open; every other one
    /// ends it.
    static func keepsConnectionOpen(_ message: String) -> Bool {
        let lowered = message.lowercased()
        return lowered.hasPrefix("permissions violation") || lowered.hasPrefix("invalid subject")
            || lowered.hasPrefix("invalid publish subject") || lowered.hasPrefix("invalid subscription")
    }

    static func isAuthorizationError(_ message: String) -> Bool {
        let lowered = message.lowercased()
        return lowered.contains("authorization violation") || lowered.contains("authentication")
            || lowered.contains("user authentication expired")
    }
}
