/// One request of the control protocol: a JSON object on one line, named by its `op`.
///
/// ```json
/// {"op":"dispatch","action":{"type":"location/changed","payload":{"latitude":51.5}}}
/// {"op":"state","path":"places"}
/// {"op":"watch","actions":"location/*","state":"location"}
/// {"op":"stats"}
/// {"op":"step"}
/// ```
///
/// Parsing is strict: an unknown member is an error (with a suggestion when one is close), so
/// a typo is reported instead of silently ignored.
public enum ControlRequest: Sendable, Hashable {
    /// Dispatch an action; the reply, `{"ok":true,"id":N}`, comes once it is reduced (and
    /// journaled). The bus stamps `id` and `time`; `source` defaults to `control`.
    case dispatch(BusAction)
    /// Read the state at a dotted path (`places.value`); the empty path is the whole state.
    case state(path: String)
    /// Stream matching actions and/or the state at a path, one line each, until the
    /// connection closes. At least one of the two is given; `options` say how a backlog is
    /// handled.
    case watch(actions: TypePattern?, state: String?, options: WatchOptions = WatchOptions())
    /// Read the bus's counters.
    case stats
    /// In a step-by-step replay (`switchyard replay --step`), let the next recorded action
    /// through; the reply, `{"ok":true,"id":N,"recorded":M,"type":"..."}`, comes once it is
    /// reduced. Any other bus answers `not-stepping`.
    case step

    /// The operation names, in the order they are documented.
    public static let operations = ["dispatch", "state", "watch", "stats", "step"]

    private static let members: [String: Set<String>] = [
        "dispatch": ["op", "action"],
        "state": ["op", "path"],
        "watch": ["op", "actions", "state", "buffer", "overflow"],
        "stats": ["op"],
        "step": ["op"],
    ]

    /// Parses one request line (without its newline).
    /// - Throws: ``ControlError`` with code `malformed-json`, `invalid-request`, `missing-field`,
    ///   `invalid-field`, `unknown-op` or `invalid-action`.
    public init(line: some Collection<UInt8>) throws(ControlError) {
        var lastType: String?
        try self.init(line: line, lastType: &lastType)
    }

    /// Parses one request line as ``init(line:)`` does; `lastType` is the type of the
    /// connection's last dispatch read the common way, which a dispatch of the same type
    /// reuses (see ``plainDispatch(_:lastType:)``), and becomes this one's.
    init(line: some Collection<UInt8>, lastType: inout String?) throws(ControlError) {
        if let action = line.withContiguousStorageIfAvailable({ Self.plainDispatch($0, lastType: &lastType) }) ?? nil {
            self = .dispatch(action)
            return
        }
        let value: JSON
        do {
            value = try JSON(parsingInput: line)
        } catch {
            throw .malformedJSON("\(error.reason) at column \(error.column)")
        }
        try self.init(json: value)
    }

    /// Reads a request from its JSON form.
    /// - Throws: ``ControlError`` as ``init(line:)`` does, except `malformed-json`.
    public init(json value: JSON) throws(ControlError) {
        guard case .object(let members) = value else { throw .invalidRequest(value.kindDescription) }
        guard let opValue = members["op"] else { throw .missingField("op", op: nil) }
        guard let op = opValue.stringValue else { throw .invalidField("op", "expected a string, got \(opValue.kindDescription)") }
        guard let allowed = Self.members[op] else { throw .unknownOp(op) }
        if let unknown = ActionBody.firstUnknown(in: members, allowed: allowed) {
            throw .invalidField(unknown, ActionBody.unknownMember(unknown, of: "\"\(op)\"", allowed: allowed))
        }
        switch op {
        case "dispatch":
            guard let action = members["action"] else { throw .missingField("action", op: op) }
            self = .dispatch(try ActionBody.parse(action))
        case "state":
            self = .state(path: try Self.path(members["path"], field: "path") ?? "")
        case "watch":
            var pattern: TypePattern?
            if let actions = members["actions"] {
                guard let text = actions.stringValue, let parsed = TypePattern(text) else {
                    throw .invalidField("actions", "expected a type pattern such as \"*\", \"gps/*\" or \"gps/fix\", got \(actions)")
                }
                pattern = parsed
            }
            let state = try Self.path(members["state"], field: "state")
            guard pattern != nil || state != nil else { throw .missingField("actions\" or \"state", op: op) }
            let options = try WatchOptions(buffer: members["buffer"], overflow: members["overflow"])
            self = .watch(actions: pattern, state: state, options: options)
        case "step":
            self = .step
        default:
            self = .stats
        }
    }

    /// The request as the JSON object a client sends.
    public var json: JSON {
        switch self {
        case .dispatch(let action):
            var object: [String: JSON] = ["type": .string(action.type), "payload": action.payload]
            if action.source != "control" { object["source"] = .string(action.source) }
            if let cause = action.cause { object["cause"] = .integer(Int64(clamping: cause)) }
            return ["op": "dispatch", "action": .object(object)]
        case .state(let path):
            return path.isEmpty ? ["op": "state"] : ["op": "state", "path": .string(path)]
        case .watch(let actions, let state, let options):
            var object = options.members
            object["op"] = "watch"
            if let actions { object["actions"] = .string(actions.description) }
            if let state { object["state"] = .string(state) }
            return .object(object)
        case .stats:
            return ["op": "stats"]
        case .step:
            return ["op": "step"]
        }
    }

    private static func path(_ value: JSON?, field: String) throws(ControlError) -> String? {
        guard let value else { return nil }
        guard let path = value.stringValue else {
            throw .invalidField(field, "expected a dotted state path such as \"places.value\", got \(value.kindDescription)")
        }
        return path
    }
}
