/// The past of the bus: `GET /api/state?at=`, `/api/why` and `/api/diff`, answered from the
/// journal by a reader of its own (``StateHistory``), off the event loop's thread.
extension HTTPRouter {
    /// `at`, `from` and `to` parsed now, so a bad request is answered at once; the reading is
    /// handed to the server's history worker.
    func history(_ path: String, _ request: HTTPRequest) -> Route {
        guard let history = backend.history else {
            return .respond(.error(status: 404, code: "no-journal", "this bus keeps no journal, so it has no past to show"))
        }
        do throws(HistoryError) {
            switch path {
            case "/api/why":
                let statePath = request.query["path"] ?? ""
                let point = try request.query["at"].map { text throws(HistoryError) in try HistoryPoint(text) }
                return Self.look { () throws(HistoryError) -> HTTPResponse in
                    return .json(["ok": true, "why": try history.why(path: statePath, at: point).json])
                }
            case "/api/diff":
                let from = try Self.point(request, "from")
                let to = try Self.point(request, "to")
                return Self.look { () throws(HistoryError) -> HTTPResponse in
                    let changes = try history.difference(from: from, to: to)
                    return .json(["ok": true, "from": .string(from.description), "to": .string(to.description),
                                  "changes": .array(changes.map { Self.json($0) })])
                }
            default:
                let point = try Self.point(request, "at")
                let statePath = request.query["path"] ?? ""
                return Self.look { () throws(HistoryError) -> HTTPResponse in
                    let moment = try history.moment(at: point)
                    guard let value = moment.state.value(atPath: statePath) else {
                        throw HistoryError(code: "not-found", message: ControlError.notFound(path: statePath).message + " after action \(moment.action.id)")
                    }
                    return .json(["ok": true, "at": moment.action.json, "state": value, "plugins": moment.plugins?.json ?? .null])
                }
            }
        } catch {
            return .respond(.error(status: error.status, code: error.code, error.message))
        }
    }

    /// The point in the query parameter `name`.
    /// - Throws: ``HistoryError`` when it is missing or does not parse, naming the parameter.
    private static func point(_ request: HTTPRequest, _ name: String) throws(HistoryError) -> HistoryPoint {
        guard let text = request.query[name] else {
            throw HistoryError(code: "invalid-field", message: "\"\(name)\": expected an action id or an ISO 8601 time, got nothing")
        }
        do {
            return try HistoryPoint(text)
        } catch {
            throw HistoryError(code: error.code, message: "\"\(name)\": " + error.message)
        }
    }

    /// Hands `body` to the history worker; its error becomes the response.
    private static func look(_ body: @escaping @Sendable () throws(HistoryError) -> HTTPResponse) -> Route {
        .look({
            do throws(HistoryError) {
                return try body()
            } catch {
                return .error(status: error.status, code: error.code, error.message)
            }
        }, headers: [:])
    }

    private static func json(_ difference: JSONDifference) -> JSON {
        ["path": .string(difference.path), "before": difference.left ?? .null, "after": difference.right ?? .null]
    }
}
