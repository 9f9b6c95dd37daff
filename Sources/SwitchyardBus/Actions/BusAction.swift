import FoundationEssentials

/// An action on the bus: a typed JSON envelope that traces back to its origin.
///
/// `id` and `time` are stamped when the bus accepts the action, so ids are strictly increasing
/// in the order actions are reduced (the journal's sequence numbers); until then both are zero.
public struct BusAction: Sendable, Hashable {
    /// The strings and the payload in one shared box that never changes: a copy of an action is
    /// one reference retained, where a copy of the values retained both strings and the payload,
    /// and a bus copies each action many times on its way (inbox, reducer, journal, every
    /// subscriber's buffer). A change to one of them puts the three in a new box; the numbers
    /// beside the box change in place, so the bus stamps an action without a new box.
    private var box: Box

    /// The action type, lower-case `domain/event`, such as `location/changed`.
    public var type: String {
        get { box.values.type }
        set { change { $0.type = newValue } }
    }

    /// The action's data; `null` when it carries none.
    public var payload: JSON {
        get { box.values.payload }
        set { change { $0.payload = newValue } }
    }

    /// The sequence number the bus gave the action; 0 before the bus accepted it.
    public var id: UInt64

    /// When the bus accepted the action.
    public var time: Date

    /// The plugin that emitted the action, `control` for the control socket, `bus` for
    /// lifecycle actions.
    public var source: String {
        get { box.values.source }
        set { change { $0.source = newValue } }
    }

    /// The id of the action that led to this one; `nil` for an origin.
    public var cause: UInt64?

    /// Set only while a recorded action is on its way into a bus (``Bus/dispatchRecorded(_:)``):
    /// the bus then keeps `time` instead of stamping it, and clears the flag.
    var keepsTime = false

    /// Creates an action to emit; the bus stamps `id` and `time` when it accepts it.
    public init(type: String, payload: JSON = .null, source: String, cause: UInt64? = nil) {
        self.init(type: type, payload: payload, id: 0, time: Date(timeIntervalSince1970: 0), source: source, cause: cause)
    }

    /// Creates a fully specified action, as read back from a journal or the control socket.
    public init(type: String, payload: JSON, id: UInt64, time: Date, source: String, cause: UInt64?) {
        box = Box(Values(type: type, payload: payload, source: source))
        self.id = id
        self.time = time
        self.cause = cause
    }

    /// Gives the action the id the bus accepted it with and, unless it keeps its recorded time
    /// (which clears the flag), `now`.
    mutating func stamp(id: UInt64, now: Date) {
        self.id = id
        if keepsTime { keepsTime = false } else { time = now }
    }

    /// Whether two actions have the same values (type, payload, id, time, source, cause).
    public static func == (lhs: BusAction, rhs: BusAction) -> Bool {
        lhs.id == rhs.id && lhs.time == rhs.time && lhs.cause == rhs.cause && lhs.keepsTime == rhs.keepsTime
            && (lhs.box === rhs.box || lhs.box.values == rhs.box.values)
    }

    /// Hashes the values `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(box.values)
        hasher.combine(id)
        hasher.combine(time)
        hasher.combine(cause)
        hasher.combine(keepsTime)
    }

    private mutating func change(_ body: (inout Values) -> Void) {
        var values = box.values
        body(&values)
        box = Box(values)
    }

    private struct Values: Sendable, Hashable {
        var type: String
        var payload: JSON
        var source: String
    }

    private final class Box: Sendable {
        let values: Values

        init(_ values: Values) {
            self.values = values
        }
    }
}

extension BusAction {
    /// The action as the JSON object every tool sees: `type`, `payload`, `id`, `time`
    /// (ISO 8601, UTC, milliseconds), `source`, `cause` (`null` for an origin).
    public var json: JSON {
        .object([
            "type": .string(type),
            "payload": payload,
            "id": .integer(Int64(clamping: id)),
            "time": .string(Timestamp.iso8601(time)),
            "source": .string(source),
            "cause": cause.map { .integer(Int64(clamping: $0)) } ?? .null,
        ])
    }

    /// Reads an action from its JSON object form. `type` is required and must be a valid
    /// action type; `payload` defaults to `null`, `id` to 0, `time` to now, `source` to
    /// `defaultSource`, `cause` to none.
    public init(json: JSON, defaultSource: String) throws(BusActionError) {
        guard case .object(let members) = json else { throw .notAnObject(json.kindDescription) }
        guard let typeValue = members["type"] else { throw .missingType }
        guard let type = typeValue.stringValue, ActionType.isValid(type) else {
            throw .invalidType(typeValue.description)
        }
        var cause: UInt64?
        if let causeValue = members["cause"], !causeValue.isNull {
            guard let value = causeValue.intValue, value >= 0 else { throw .invalidField("cause", causeValue.description) }
            cause = UInt64(value)
        }
        var id: UInt64 = 0
        if let idValue = members["id"] {
            guard let value = idValue.intValue, value >= 0 else { throw .invalidField("id", idValue.description) }
            id = UInt64(value)
        }
        var time = Date()
        if let timeValue = members["time"] {
            guard let text = timeValue.stringValue, let parsed = Timestamp.parseISO8601(text) else {
                throw .invalidField("time", timeValue.description)
            }
            time = parsed
        }
        var source = defaultSource
        if let sourceValue = members["source"] {
            guard let text = sourceValue.stringValue else { throw .invalidField("source", sourceValue.description) }
            source = text
        }
        self.init(type: type, payload: members["payload"] ?? .null, id: id, time: time, source: source, cause: cause)
    }
}

/// Why a JSON value is not a ``BusAction``.
public struct BusActionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A sentence naming the field and what is wrong with it.
    public let description: String

    static func notAnObject(_ kind: String) -> BusActionError {
        BusActionError(description: "an action must be a JSON object, got \(kind)")
    }

    static let missingType = BusActionError(description: "an action needs a \"type\"")

    static func invalidType(_ value: String) -> BusActionError {
        BusActionError(description: "\"type\" must be a lower-case \"domain/event\" string, got \(value)")
    }

    static func invalidField(_ field: String, _ value: String) -> BusActionError {
        BusActionError(description: "invalid \"\(field)\": \(value)")
    }
}
