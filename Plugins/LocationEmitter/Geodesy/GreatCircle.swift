import FoundationEssentials
import Glibc

/// Great-circle distances on a spherical Earth.
///
/// The haversine formula stays accurate for the short distances a distance filter compares
/// (a few metres), unlike the spherical law of cosines, and needs no special case across the
/// antimeridian or the poles: longitudes enter only through the sine of half their difference.
/// The sphere has the mean Earth radius, so results are within 0.5% of the ellipsoidal
/// (Vincenty) distance everywhere.
enum GreatCircle {
    /// The IUGG mean Earth radius, metres.
    static let earthRadius = 6_371_008.8

    /// The distance in metres between `a` and `b` along the surface.
    static func distance(_ a: Coordinate, _ b: Coordinate) -> Double {
        let φ1 = a.latitude * .pi / 180
        let φ2 = b.latitude * .pi / 180
        let Δφ = φ2 - φ1
        let Δλ = (b.longitude - a.longitude) * .pi / 180
        let sinHalfΔφ = sin(Δφ / 2)
        let sinHalfΔλ = sin(Δλ / 2)
        let h = sinHalfΔφ * sinHalfΔφ + cos(φ1) * cos(φ2) * sinHalfΔλ * sinHalfΔλ
        return 2 * earthRadius * asin(min(1, h.squareRoot()))
    }
}
