import SwitchyardBus

/// A `TPV` report: gpsd's time-position-velocity fix.
///
/// gpsd omits whatever the receiver did not report, so every field but `mode` is optional:
/// a mode-3 TPV can lack a position, many lack a time, and the first of a cycle often lacks
/// error estimates. A position is kept only when both coordinates are present and in range.
struct GPSDFix: Sendable, Hashable, GPSDNumberFields {
    /// NMEA fix mode: 0 unknown (also when gpsd sent none or nonsense), 1 no fix, 2 2D, 3 3D.
    var mode: Int
    /// The device that produced the fix.
    var device: String?
    /// The fix time exactly as gpsd wrote it (ISO 8601, UTC). Old captures played through
    /// gpsd 3.22 read about 19.6 years ahead (GPS week rollover), so nothing orders by it.
    var time: String?
    /// Latitude in degrees, north positive; `nil` unless `longitude` is also present.
    var latitude: Double?
    /// Longitude in degrees, east positive; `nil` unless `latitude` is also present.
    var longitude: Double?
    /// Altitude above the WGS84 ellipsoid, metres.
    var altitudeHAE: Double?
    /// Altitude above mean sea level, metres (older gpsd calls it `alt`).
    var altitudeMSL: Double?
    /// Speed over ground, metres per second.
    var speed: Double?
    /// Course over ground, degrees from true north.
    var track: Double?
    /// Vertical speed, metres per second.
    var climb: Double?
    /// Estimated horizontal position error, metres.
    var horizontalError: Double?
    /// Estimated vertical error, metres.
    var verticalError: Double?
    /// Estimated longitude error, metres.
    var longitudeError: Double?
    /// Estimated latitude error, metres.
    var latitudeError: Double?

    /// Decodes the members of a TPV object; fields of the wrong type count as missing.
    init(_ members: [String: JSON]) {
        let mode = members["mode"]?.intValue ?? 0
        self.mode = (0...3).contains(mode) ? mode : 0
        device = members["device"]?.stringValue
        time = members["time"]?.stringValue
        if let latitude = members["lat"]?.doubleValue, let longitude = members["lon"]?.doubleValue,
            (-90...90).contains(latitude), (-180...180).contains(longitude)
        {
            self.latitude = latitude
            self.longitude = longitude
        }
        altitudeMSL = members["altMSL"]?.doubleValue ?? members["alt"]?.doubleValue
        decodeNumbers(members)
    }

    static var numberFields: [(name: String, field: WritableKeyPath<GPSDFix, Double?>)] {
        [
            ("altHAE", \.altitudeHAE), ("speed", \.speed), ("track", \.track), ("climb", \.climb),
            ("eph", \.horizontalError), ("epv", \.verticalError), ("epx", \.longitudeError), ("epy", \.latitudeError),
        ]
    }

    /// The `NAME/fix` payload: `mode` always, every other field only when known, named as gpsd
    /// names them (`lat`, `lon`, `altHAE`, `altMSL`, `speed`, `track`, `climb`, `eph`, `epv`,
    /// `epx`, `epy`, `time`, `device`).
    var payload: JSON {
        var members: [String: JSON] = ["mode": .integer(Int64(mode))]
        members["device"] = device.map(JSON.string)
        members["time"] = time.map(JSON.string)
        members["lat"] = latitude.map(JSON.number)
        members["lon"] = longitude.map(JSON.number)
        members["altMSL"] = altitudeMSL.map(JSON.number)
        encodeNumbers(into: &members)
        return .object(members)
    }
}
