/// Maps a request to what the server does with it: a response now, a dispatch whose response
/// comes once the action is durable, or an event stream.
///
/// Free of I/O: the host carries the result out.
struct HTTPRouter: Sendable {
    /// What to do with a request.
    enum Route: Sendable {
        /// Send this response.
        case respond(HTTPResponse)
        /// Dispatch the action; respond `{"id":N,"ok":true}` once it is reduced and journaled.
        case dispatch(BusAction, headers: [String: String])
        /// Stream matching actions as Server-Sent Events, after those journaled after
        /// `lastEventID` when it is given.
        case stream(TypePattern, lastEventID: UInt64?, headers: [String: String])
        /// Read the journal with this closure, off the event loop, and send what it makes.
        case look(@Sendable () -> HTTPResponse, headers: [String: String])
    }

    /// The paths served, with their methods (`HEAD` goes with every `GET`).
    static let endpoints: [String: [String]] = [
        "/": ["GET"],
        "/healthz": ["GET"],
        "/readyz": ["GET"],
        "/metrics": ["GET"],
        "/api/state": ["GET"],
        "/api/stats": ["GET"],
        "/api/dispatch": ["POST"],
        "/api/actions": ["GET"],
        "/api/why": ["GET"],
        "/api/diff": ["GET"],
    ]

    /// Paths served without the token: probes of load balancers and orchestrators.
    static let openPaths: Set<String> = ["/healthz", "/readyz"]

    let backend: DoorBackend
    let authorization: HTTPAuthorization
    let site: HTTPSitePolicy

    func route(_ request: HTTPRequest) -> Route {
        guard let path = request.path else {
            return .respond(.error(status: 400, code: "bad-request", "the path's percent-encoding is broken"))
        }
        // Probes come by address from anywhere and learn nothing; everything else checks who
        // is asking first.
        if !Self.openPaths.contains(path), let refusal = site.refusal(of: request) {
            return .respond(refusal)
        }
        guard let methods = Self.endpoints[path] else {
            return .respond(.error(status: 404, code: "not-found", "nothing is served at \(path); see / for the endpoints"))
        }
        let allowed = methods.contains("GET") ? methods + ["HEAD"] : methods
        guard allowed.contains(request.method) else {
            var response = HTTPResponse.error(status: 405, code: "method-not-allowed",
                                              "\(path) takes \(allowed.joined(separator: " or ")), not \(request.method)")
            response.headers["Allow"] = allowed.joined(separator: ", ")
            return .respond(response)
        }
        var headers: [String: String] = [:]
        if !Self.openPaths.contains(path) {
            switch authorization.decide(request) {
            case .allowed: break
            case .allowedSettingCookie(let cookie): headers["Set-Cookie"] = cookie
            case .denied(let message):
                var response = HTTPResponse.error(status: 401, code: "unauthorized", message)
                response.headers["WWW-Authenticate"] = #"Bearer realm="switchyard""#
                return .respond(response)
            }
        }
        var route = serve(path, request)
        if case .respond(var response) = route {
            response.headers.merge(headers) { _, new in new }
            response.headers["Cache-Control"] = response.headers["Cache-Control"] ?? "no-store"
            route = .respond(response)
        } else if case .dispatch(let action, _) = route {
            route = .dispatch(action, headers: headers)
        } else if case .stream(let pattern, let last, _) = route {
            route = .stream(pattern, lastEventID: last, headers: headers)
        } else if case .look(let look, _) = route {
            route = .look(look, headers: headers)
        }
        return route
    }

    private func serve(_ path: String, _ request: HTTPRequest) -> Route {
        switch path {
        case "/healthz":
            return .respond(.text("ok"))
        case "/readyz":
            let (ready, problems) = backend.readiness()
            return .respond(.text(ready ? "ready" : "not ready:\n" + problems.joined(separator: "\n"), status: ready ? 200 : 503))
        case "/metrics":
            return .respond(.text(backend.metrics(), contentType: "text/plain; version=0.0.4; charset=utf-8"))
        case "/api/state" where request.query["at"] != nil, "/api/why", "/api/diff":
            return history(path, request)
        case "/api/state":
            let statePath = request.query["path"] ?? ""
            guard let value = backend.state().value(atPath: statePath) else {
                return .respond(.error(status: 404, code: "not-found", ControlError.notFound(path: statePath).message))
            }
            return .respond(.json(["ok": true, "state": value]))
        case "/api/stats":
            return .respond(.json(["ok": true, "stats": backend.statistics()]))
        case "/api/dispatch":
            return dispatch(request)
        case "/api/actions":
            return stream(request)
        default:
            return .respond(HTTPResponse(status: 200, headers: ["Content-Type": "text/html; charset=utf-8"], body: backend.dashboard))
        }
    }

    /// The body is the action, as in the control protocol's dispatch:
    /// `{"type":"door/open","payload":{...}}`.
    private func dispatch(_ request: HTTPRequest) -> Route {
        guard !backend.readOnly else {
            return .respond(.error(status: 403, code: "read-only", "this is a recording served by switchyard inspect: nothing can be dispatched to it"))
        }
        // A form or a beacon (`text/plain`, no type at all) is what a cross-site page can send
        // without asking: only JSON declared as such is an action.
        let type = request.header("content-type") ?? ""
        let mediaType = type.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        guard mediaType.trimmingSpaces().lowercased() == "application/json" else {
            let sent = type.isEmpty ? "no Content-Type" : "Content-Type \(type)"
            return .respond(.error(status: 415, code: "unsupported-media-type",
                                   "the body must be sent with Content-Type: application/json, not \(sent)"))
        }
        let body: JSON
        do {
            body = try JSON(parsingInput: request.body)
        } catch {
            let failure = ControlError.malformedJSON("\(error.reason) at column \(error.column)")
            return .respond(.error(status: 400, code: failure.code, failure.message))
        }
        do {
            var stamped = try ActionBody.parse(body)
            if case .object(let members) = body, members["source"] == nil { stamped.source = "http" }
            return .dispatch(stamped, headers: [:])
        } catch {
            return .respond(.error(status: 400, code: error.code, error.message))
        }
    }

    private func stream(_ request: HTTPRequest) -> Route {
        let text = request.query["pattern"] ?? "*"
        guard let pattern = TypePattern(text) else {
            return .respond(.error(status: 400, code: "invalid-field",
                                   "\"pattern\": expected a type pattern such as \"*\", \"gps/*\" or \"gps/fix\", got \(JSON.string(text))"))
        }
        var lastEventID: UInt64?
        if let header = request.header("last-event-id") ?? request.query["lastEventId"] {
            guard let id = UInt64(header) else {
                return .respond(.error(status: 400, code: "invalid-field", "Last-Event-ID must be an action id (a sequence number), got \(JSON.string(header))"))
            }
            // An id the bus never gave out would make the stream wait for it, skipping every
            // live action before it.
            let next = backend.nextActionID()
            guard id < next else {
                return .respond(.error(status: 400, code: "invalid-field",
                                       "Last-Event-ID \(id) names no action of this bus yet (the next one gets \(next)); resume from an id it sent, or 0 for everything journaled"))
            }
            lastEventID = id
        }
        return .stream(pattern, lastEventID: lastEventID, headers: [:])
    }
}
