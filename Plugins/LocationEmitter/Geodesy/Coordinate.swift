/// A position on the WGS84 ellipsoid in degrees: latitude north positive, longitude east
/// positive.
struct Coordinate: Sendable, Hashable {
    /// Degrees north of the equator, -90 to 90.
    var latitude: Double
    /// Degrees east of Greenwich, -180 to 180.
    var longitude: Double
}
