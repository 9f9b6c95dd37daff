import Glibc
import SwitchyardIO
import SwitchyardStreams

/// The loop-side half of the HTTP server: accepts clients, answers each connection's requests
/// in order and sends its bytes, all on the event loop's thread.
///
/// Event-driven like the control host: readiness, the server's outbox signal, or a
/// connection's timer (request timeout, idle timeout, the stop deadline).
final class HTTPHost: ConnectionHost {
    let server: HTTPServer
    let thread: any HostLoop
    private let router: HTTPRouter
    /// What the event streams' outboxes hold together.
    private let streamBudget: OutboxBudget
    var connections = HostedConnections<HTTPConnection>()
    private var loggedDrop = false
    static let logName = "http"

    private init(server: HTTPServer, thread: any HostLoop) {
        self.server = server
        self.thread = thread
        router = HTTPRouter(backend: server.backend, authorization: HTTPAuthorization(token: server.settings.token),
                            site: HTTPSitePolicy(settings: server.settings))
        streamBudget = OutboxBudget(limit: server.limits.streamBudgetBytes, floor: server.limits.streamBufferFloor)
    }

    /// Starts serving `server`'s listener on `thread`.
    @discardableResult
    static func start(server: HTTPServer, on thread: any HostLoop) -> HTTPHost {
        let host = HTTPHost(server: server, thread: thread)
        host.start(acceptPause: .milliseconds(100), failed: "http: the server stopped") { $0.accepted($1) }
        return host
    }

    private func accepted(_ event: Acceptor.Event) {
        handle(event, refusal: "503", admit: admit) { refused in
            if let refused { refuse(refused, "the bus has run out of file descriptors; try again later") }
        }
    }

    private func admit(_ descriptor: Int32) {
        guard connections.open.count < server.limits.maximumConnections || reclaimIdleSlot() else {
            refuse(descriptor, "the bus serves at most \(server.limits.maximumConnections) HTTP connections at a time; try again later")
            return
        }
        var on: Int32 = 1
        _ = setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        open(descriptor) { refuse($0, "the bus cannot serve a connection now; try again later") }
    }

    func makeConnection(_ channel: any StreamChannel) -> HTTPConnection {
        HTTPConnection(channel: channel, limits: server.limits, budget: streamBudget, host: self)
    }

    func opened(_ connection: HTTPConnection) {
        armTimer(connection)
    }

    /// Closes the connection that has waited longest for its next request, making room for a
    /// new client; `false` when every connection is busy. HTTP/1.1 lets a server close an
    /// idle connection at any time: its client opens a new one for its next request.
    private func reclaimIdleSlot() -> Bool {
        guard let idlest = connections.open.values.filter(\.isIdle).min(by: { $0.lastActivity < $1.lastActivity }) else {
            return false
        }
        server.count { $0.idleReclaimed += 1 }
        close(idlest)
        return true
    }

    static var counts: ConnectionCounts<HTTPStatistics, Int> { ConnectionCounts(accepted: \.accepted, open: \.connections, streaming: \.streams, refused: \.refused) }

    /// The host keeps no timers besides its connections'.
    func cancelHostTimers() {}

    /// Answers 503 and closes: the request is not read, so the client is told before it sends.
    private func refuse(_ descriptor: Int32, _ message: String) {
        var response = HTTPResponse.text("503 Service Unavailable: \(message)", status: 503)
        response.headers["Retry-After"] = "1"
        refuse(descriptor, with: response.serialized(keepAlive: false)) { $0.responses[503, default: 0] += 1 }
    }

    /// Collects the connection's events, answers its requests while it may, sends, and closes
    /// it when it is done.
    func service(_ connection: HTTPConnection) {
        guard isOpen(connection) else { return }
        let stopDeadline = connections.stopDeadline
        if let events = connection.outbox.takeEvents() {
            if events.completions > 0 { connection.awaitingResponse = false }
            if let reason = events.dropped {
                server.count { $0.streamsDropped += 1 }
                if !loggedDrop {
                    loggedDrop = true
                    server.log.write(.warning, "http: dropped an event-stream client: \(reason) (further drops are counted in stats http.streamsDropped)")
                }
                close(connection)
                return
            }
            if events.finished { connection.closing = true }
        }
        while stopDeadline == nil, !connection.closing, !connection.awaitingResponse, connection.stream == nil,
              let event = connection.parser.next() {
            switch event {
            case .continueExpected:
                connection.outbox.appendReply(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
            case .failure(let failure):
                respond(HTTPResponse.failure(failure), to: connection, keepAlive: false)
            case .request(let request):
                connection.requestStarted = connection.parser.isInsideRequest ? thread.now : nil
                perform(request, on: connection)
            }
        }
        connection.flush()
        if connection.isDone || (stopDeadline.map { connection.isIdle || thread.now >= $0 } ?? false) {
            close(connection)
            return
        }
        connection.updateInterest(readAhead: server.limits.readAhead)
        armTimer(connection)
    }

    private func respond(_ response: HTTPResponse, to connection: HTTPConnection, keepAlive: Bool, headOnly: Bool = false) {
        connection.outbox.appendReply(response.serialized(keepAlive: keepAlive, headOnly: headOnly))
        if !keepAlive { connection.closing = true }
        server.count { $0.responses[response.status, default: 0] += 1 }
    }

    private func perform(_ request: HTTPRequest, on connection: HTTPConnection) {
        let keepAlive = request.keepsAlive
        switch router.route(request) {
        case .respond(let response):
            respond(response, to: connection, keepAlive: keepAlive, headOnly: request.method == "HEAD")
        case .dispatch(let action, let headers):
            connection.awaitingResponse = true
            let outbox = connection.outbox
            let server = self.server
            _ = server.backend.dispatch([action]) { outcome in
                var response: HTTPResponse
                switch outcome {
                case .dispatched(let id): response = .json(["id": .integer(Int64(clamping: id)), "ok": true])
                case .stopping: response = .error(status: 503, code: ControlError.stopping.code, ControlError.stopping.message)
                case .journalFailed(let reason):
                    let error = ControlError.journalFailed(reason)
                    response = .error(status: 500, code: error.code, error.message)
                }
                response.headers.merge(headers) { _, new in new }
                response.headers["Cache-Control"] = "no-store"
                server.count { $0.responses[response.status, default: 0] += 1 }
                outbox.complete(with: response.serialized(keepAlive: keepAlive))
                server.wake()
            }
            if !keepAlive { connection.closing = true }
        case .look(let look, let headers):
            connection.awaitingResponse = true
            let outbox = connection.outbox
            let server = self.server
            let headOnly = request.method == "HEAD"
            server.historyWorker.submit {
                var response = look()
                response.headers.merge(headers) { _, new in new }
                response.headers["Cache-Control"] = "no-store"
                server.count { $0.responses[response.status, default: 0] += 1 }
                outbox.complete(with: response.serialized(keepAlive: keepAlive, headOnly: headOnly))
                server.wake()
            }
            if !keepAlive { connection.closing = true }
        case .stream(let pattern, let lastEventID, let headers):
            startStream(pattern, lastEventID: lastEventID, headers: headers, request: request, on: connection)
        }
    }

    private func startStream(_ pattern: TypePattern, lastEventID: UInt64?, headers: [String: String], request: HTTPRequest, on connection: HTTPConnection) {
        var response = HTTPResponse(status: 200, headers: headers)
        response.headers["Content-Type"] = "text/event-stream"
        response.headers["Cache-Control"] = "no-store"
        response.headers["X-Accel-Buffering"] = "no"
        server.count { $0.responses[200, default: 0] += 1 }
        var head = response.head(keepAlive: false, bodyLength: nil)
        guard request.method != "HEAD" else {
            connection.outbox.appendReply(head)
            connection.closing = true
            return
        }
        // A comment first, so the client sees the stream open before the first action.
        head.append(contentsOf: ": switchyard event stream\n\n".utf8)
        let limits = server.limits
        let server = self.server
        let stream = HTTPEventStream(
            actions: server.backend.actions(pattern, limits.streamBufferActions, .dropNewest),
            pattern: pattern, lastEventID: lastEventID, journalDirectory: server.backend.journalDirectory,
            outbox: connection.outbox, limits: limits, wake: { server.wake() }
        )
        connection.outbox.appendReply(head)
        server.count { $0.streams += 1 }
        connection.stream = Task { await stream.run() }
    }

    /// Keeps one timer per connection at its next deadline: the request timeout while a
    /// request arrives, else the idle timeout while it waits for one.
    private func armTimer(_ connection: HTTPConnection) {
        let due: ContinuousClock.Instant?
        if let started = connection.requestStarted, !connection.awaitingResponse {
            due = started.advanced(by: server.limits.requestTimeout)
        } else if connection.isIdle || (connection.stream == nil && !connection.awaitingResponse) {
            due = connection.lastActivity.advanced(by: server.limits.idleTimeout)
        } else {
            due = nil
        }
        if let timer = connection.timer {
            if timer.due == due { return }
            thread.cancel(timer.id)
            connection.timer = nil
        }
        guard let due else { return }
        let id = thread.schedule(at: due) { [weak self, weak connection] in
            guard let self, let connection else { return }
            connection.timer = nil
            self.expire(connection)
        }
        connection.timer = (id, due)
    }

    private func expire(_ connection: HTTPConnection) {
        guard isOpen(connection) else { return }
        let now = thread.now
        if let started = connection.requestStarted, !connection.awaitingResponse,
           now >= started.advanced(by: server.limits.requestTimeout) {
            server.count { $0.timedOut += 1 }
            connection.parser = HTTPRequestParser(limits: server.limits)
            respond(HTTPResponse.failure(.requestTimeout(server.limits.requestTimeout)), to: connection, keepAlive: false)
            connection.requestStarted = nil
            service(connection)
            return
        }
        if connection.stream == nil, !connection.awaitingResponse, connection.requestStarted == nil,
           now >= connection.lastActivity.advanced(by: server.limits.idleTimeout) {
            close(connection)
            return
        }
        service(connection)
    }
}
