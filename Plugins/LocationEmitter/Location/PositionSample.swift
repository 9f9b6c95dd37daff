import SwitchyardBus

/// One position report from a source, before filtering: a gpsd fix, a replayed NMEA epoch or
/// GPX track point, or the static position.
struct PositionSample: Sendable, Hashable {
    /// Fix mode as gpsd numbers it: 0 unknown, 1 no fix, 2 2D, 3 3D.
    var mode: Int
    /// The position; `nil` when the source has none (no fix, or a mode-3 TPV without one).
    var coordinate: Coordinate?
    /// Altitude above mean sea level (ellipsoid height when that is all there is), metres.
    var altitude: Double?
    /// Estimated horizontal error, metres.
    var horizontalAccuracy: Double?
    /// Speed over ground, metres per second.
    var speed: Double?
    /// Course over ground, degrees from true north.
    var course: Double?
    /// The source's own time for the position (ISO 8601), as it gave it.
    var timestamp: String?

    /// Reads a `gps/fix` payload from a gpsd plugin. Accuracy is gpsd's `eph`, else the larger
    /// of `epx` and `epy` (the longer axis of the error ellipse); altitude prefers `altMSL`.
    init(gpsdFix payload: JSON) {
        let mode = payload["mode"]?.intValue ?? 0
        self.mode = (0...3).contains(mode) ? mode : 0
        if let latitude = payload["lat"]?.doubleValue, let longitude = payload["lon"]?.doubleValue,
            (-90...90).contains(latitude), (-180...180).contains(longitude)
        {
            coordinate = Coordinate(latitude: latitude, longitude: longitude)
        }
        altitude = payload["altMSL"]?.doubleValue ?? payload["altHAE"]?.doubleValue
        let axes = [payload["epx"]?.doubleValue, payload["epy"]?.doubleValue].compactMap { $0 }
        horizontalAccuracy = payload["eph"]?.doubleValue ?? axes.max()
        speed = payload["speed"]?.doubleValue
        course = payload["track"]?.doubleValue
        timestamp = payload["time"]?.stringValue
    }

    /// Creates a sample from its parts.
    init(
        mode: Int, coordinate: Coordinate?, altitude: Double? = nil, horizontalAccuracy: Double? = nil,
        speed: Double? = nil, course: Double? = nil, timestamp: String? = nil
    ) {
        self.mode = mode
        self.coordinate = coordinate
        self.altitude = altitude
        self.horizontalAccuracy = horizontalAccuracy
        self.speed = speed
        self.course = course
        self.timestamp = timestamp
    }
}
