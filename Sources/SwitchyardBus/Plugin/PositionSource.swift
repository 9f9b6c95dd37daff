import FoundationEssentials

/// The actions of a plugin kind that carry a position, and where in their payload it is: what
/// the dashboard's map and `journal export --gpx|--geojson` read (see
/// ``PluginContributions/position``).
///
/// A position is an action `NAME/ACTION` whose source is the plugin `NAME` itself, with
/// numeric latitude and longitude in range (and, when ``minimumMode`` is set, a numeric `mode`
/// at least that). Members that are absent or not finite numbers are left out of the position.
public struct PositionSource: Sendable, Hashable {
    /// The event after `NAME/`, such as `fix` for `gps/fix`.
    public var action: String
    /// What the export's error message calls these actions after the kind, such as
    /// `NAME/fix with a 2D or 3D fix`. Default: `NAME/ACTION`.
    public var summary: String
    /// The payload members of the latitude and longitude, in degrees.
    public var latitude: String, longitude: String
    /// Members tried in order for the altitude in metres. Default: none.
    public var altitude: [String]
    /// The member with the position's own time (ISO 8601); without it, the action's time.
    public var time: String?
    /// Members of the horizontal accuracy (metres), speed (metres per second) and course
    /// (degrees from true north). Default: none.
    public var horizontalAccuracy: String?, speed: String?, course: String?
    /// The least `mode` (1 no fix, 2 2D, 3 3D) of an action that carries a position; `nil`
    /// (the default) takes every action, its `mode` read when present.
    public var minimumMode: Int?
    /// The action that says the position is lost, ending a track's segment. Default: `nil`,
    /// never lost.
    public var loss: PositionLoss?

    /// Creates a source; defaults as documented on each property.
    public init(action: String, summary: String? = nil, latitude: String, longitude: String, altitude: [String] = [],
                time: String? = nil, horizontalAccuracy: String? = nil, speed: String? = nil, course: String? = nil,
                minimumMode: Int? = nil, loss: PositionLoss? = nil) {
        self.action = action
        self.summary = summary ?? "NAME/" + action
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.time = time
        self.horizontalAccuracy = horizontalAccuracy
        self.speed = speed
        self.course = course
        self.minimumMode = minimumMode
        self.loss = loss
    }

    /// The position `action` carries when it is this source's `NAME/ACTION` from `NAME`;
    /// `nil` otherwise.
    public func position(in action: BusAction) -> Position? {
        guard Self.event(of: action) == self.action[...] else { return nil }
        let payload = action.payload
        let mode = payload["mode"]?.intValue
        if let minimumMode, (mode ?? Int.min) < minimumMode { return nil }
        guard let latitude = payload[latitude]?.doubleValue, let longitude = payload[longitude]?.doubleValue,
            (-90...90).contains(latitude), (-180...180).contains(longitude)
        else { return nil }
        func finite(_ member: String?) -> Double? {
            guard let member, let number = payload[member]?.doubleValue, number.isFinite else { return nil }
            return number
        }
        return Position(latitude: latitude, longitude: longitude, altitude: altitude.lazy.compactMap(finite).first,
                        time: time.flatMap { payload[$0]?.stringValue }.flatMap(Timestamp.parseISO8601) ?? action.time,
                        horizontalAccuracy: finite(horizontalAccuracy), speed: finite(speed), course: finite(course), mode: mode)
    }

    /// Whether `action` says the position of its source is lost (see ``loss``).
    public func losesPosition(_ action: BusAction) -> Bool {
        guard let loss, Self.event(of: action) == loss.event[...] else { return false }
        return action.payload[loss.event]?.stringValue != loss.healthy
    }

    /// The source as the dashboard's script reads it: the members it shows, by name.
    public var json: JSON {
        var object: [String: JSON] = ["action": .string(action), "latitude": .string(latitude), "longitude": .string(longitude)]
        object["time"] = time.map(JSON.string)
        object["horizontalAccuracy"] = horizontalAccuracy.map(JSON.string)
        object["minimumMode"] = minimumMode.map { .integer(Int64($0)) }
        return .object(object)
    }

    /// `EVENT` of an action `NAME/EVENT` whose source is `NAME`: a plugin's own action.
    private static func event(of action: BusAction) -> Substring? {
        guard let slash = action.type.lastIndex(of: "/"), action.type[..<slash] == action.source else { return nil }
        return action.type[action.type.index(after: slash)...]
    }
}

/// An action that says a plugin's position is lost: `NAME/EVENT` whose payload member `EVENT`
/// is not `healthy`, such as `gps/status` with a `status` other than `connected`.
public struct PositionLoss: Sendable, Hashable {
    /// The event after `NAME/`, which is also the payload member read.
    public var event: String
    /// The member's value while the position holds.
    public var healthy: String

    /// Creates a loss condition.
    public init(event: String, healthy: String) {
        self.event = event
        self.healthy = healthy
    }
}

/// A position read from an action by a ``PositionSource``.
public struct Position: Sendable, Equatable {
    /// Degrees, -90 to 90 and -180 to 180.
    public var latitude: Double, longitude: Double
    /// Metres.
    public var altitude: Double?
    /// The position's own time; the time the bus reduced it when the payload gave none.
    public var time: Date
    /// Metres; metres per second; degrees from true north.
    public var horizontalAccuracy: Double?, speed: Double?, course: Double?
    /// The fix mode, when the payload has one.
    public var mode: Int?
}
