/// An error reply of the control protocol: a stable code for programs and a message for people.
/// HTTP answers with the same codes (in its JSON error bodies), so both doors share it.
///
/// On the wire: `{"ok":false,"error":{"code":"unknown-op","message":"..."}}`. Every error but
/// ``tooSlow(_:)`` keeps the connection open.
public struct ControlError: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Code: String, Sendable, Hashable {
        case malformedJSON = "malformed-json"
        case lineTooLong = "line-too-long"
        case invalidRequest = "invalid-request"
        case missingField = "missing-field"
        case invalidField = "invalid-field"
        case unknownOp = "unknown-op"
        case invalidAction = "invalid-action"
        case notFound = "not-found"
        case busy = "busy"
        case stopping = "stopping"
        case tooSlow = "too-slow"
        case tooManyClients = "too-many-clients"
        case journalFailed = "journal-failed"
        case permissionDenied = "permission-denied"
        case idleTimeout = "idle-timeout"
        case notStepping = "not-stepping"
    }

    private let kind: Code
    /// What went wrong, in words.
    public let message: String

    private init(_ kind: Code, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The stable code: `malformed-json`, `line-too-long`, `invalid-request`, `missing-field`,
    /// `invalid-field`, `unknown-op`, `invalid-action`, `not-found`, `busy`, `stopping`,
    /// `too-slow`, `too-many-clients`, `journal-failed`, `permission-denied`, `idle-timeout` or
    /// `not-stepping`.
    public var code: String { kind.rawValue }

    /// `unknown-op: ...`.
    public var description: String { "\(code): \(message)" }

    /// The request line is not JSON; `detail` says where.
    public static func malformedJSON(_ detail: String) -> ControlError {
        ControlError(.malformedJSON, "the request is not valid JSON: \(detail)")
    }

    /// The request line is longer than the limit; its bytes were discarded up to the next newline.
    public static func lineTooLong(limit: Int) -> ControlError {
        ControlError(.lineTooLong, "the request line is longer than \(limit) bytes; it was discarded")
    }

    /// The request is JSON but not an object.
    public static func invalidRequest(_ kind: String) -> ControlError {
        ControlError(.invalidRequest, "a request must be a JSON object such as {\"op\":\"state\"}, got \(kind)")
    }

    /// A required member is absent.
    public static func missingField(_ field: String, op: String?) -> ControlError {
        ControlError(.missingField, op.map { "\"\($0)\" needs \"\(field)\"" } ?? "a request needs \"\(field)\"")
    }

    /// A member has the wrong type or value, or is not known.
    public static func invalidField(_ field: String, _ reason: String) -> ControlError {
        ControlError(.invalidField, "\"\(field)\": \(reason)")
    }

    /// `op` names no operation.
    public static func unknownOp(_ op: String) -> ControlError {
        ControlError(.unknownOp, "unknown op \(JSON.string(op)); known ops: \(ControlRequest.operations.joined(separator: ", "))")
    }

    /// The action of a dispatch request is not a valid action.
    public static func invalidAction(_ reason: String) -> ControlError {
        ControlError(.invalidAction, reason)
    }

    /// Nothing is at the requested state path.
    public static func notFound(path: String) -> ControlError {
        ControlError(.notFound, "no state at \(JSON.string(path))")
    }

    /// A request arrived on a connection that is watching; watching connections take none.
    public static let busy = ControlError(.busy, "this connection is watching; open another connection for requests")

    /// The bus is stopping and takes no more actions.
    public static let stopping = ControlError(.stopping, "the bus is stopping; the action was not dispatched")

    /// A watcher fell behind and was dropped; the connection is closed.
    public static func tooSlow(_ reason: String) -> ControlError {
        ControlError(.tooSlow, "dropped: \(reason)")
    }

    /// The server is at its connection limit; the connection is closed.
    public static func tooManyClients(limit: Int) -> ControlError {
        ControlError(.tooManyClients, "the bus serves at most \(limit) control connections at a time")
    }

    /// The server is out of file descriptors (its own limit or the system's); the connection
    /// is closed.
    public static let outOfDescriptors = ControlError(.tooManyClients, "the bus has run out of file descriptors; try again later")

    /// The connecting user is neither the bus's user nor one it allows; the connection is closed.
    public static func permissionDenied(userID: UInt32) -> ControlError {
        ControlError(.permissionDenied, "uid \(userID) may not use this bus (allow it with bus.control.allowUIDs or allowUsers)")
    }

    /// The connection sent no request for the idle timeout; it is closed.
    public static func idleTimeout(_ timeout: Duration) -> ControlError {
        ControlError(.idleTimeout, "no request for \(timeout); the connection is closed")
    }

    /// The journal could not write the action (`reason` names the file and errno): it was not
    /// acknowledged, and the bus stops.
    public static func journalFailed(_ reason: String) -> ControlError {
        ControlError(.journalFailed, "the journal could not write the action, so it is not acknowledged; the bus stops: \(reason)")
    }

    /// A `step` request to a bus that is not a step-by-step replay (`switchyard replay --step`).
    public static let notStepping = ControlError(.notStepping, "this bus is not a step-by-step replay (switchyard replay --step); there is nothing to step through")

    /// A `step` request after the replay ended: no recorded action is left to let through.
    public static let replayOver = ControlError(.notStepping, "the replay is over: no recorded action is left to step to")

    /// The error reply as a JSON object.
    public var json: JSON {
        ["ok": false, "error": ["code": .string(code), "message": .string(message)]]
    }
}
